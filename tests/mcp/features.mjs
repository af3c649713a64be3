// SPDX-License-Identifier: BSL-1.0
// The server features beyond tools, against the official SDK client (current pin) over stdio
// and Streamable HTTP, and over raw HTTP where the SDK has no API.
//
//   node features.mjs <path to agentry_mcp_feature_server>
//
//  - Capabilities; annotations derived from the tools' policies.
//  - Progress: notifications/progress reach callTool's onprogress.
//  - Cancellation: the SDK client aborts a call (AbortSignal) once its first progress arrives;
//    the tool sees its agentry::stop_token signalled (asked of the server afterwards, no timing).
//  - Logging: setLoggingLevel, then a tool's messages at that level and above only.
//  - Resources (static and templated) and prompts: listed, read, got; completion of a prompt
//    argument and a template variable; a subscription, the update a tool triggers, then none
//    after unsubscribing (over HTTP the update comes on the GET stream the SDK opens).
//  - Per-session context: two HTTP sessions count their calls apart.
//  - HTTP: the SDK sends Accept: text/event-stream, so a call with notifications is answered with
//    an SSE stream carrying them and the result; the GET stream receives the application's log
//    messages and ends when the session is deleted; stateless 2026-07-28 requests.
// Every message the server sends is validated against the negotiated version's schema.
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import {
    STATELESS,
    here,
    prerequisites,
    recordingFetch,
    recordingRequests,
    sseMessages,
    startHttpServer,
    validateServerMessages,
} from "./common.mjs";

const [clientModule, stdioModule, httpModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk/client/index.js",
    "@modelcontextprotocol/sdk/client/stdio.js",
    "@modelcontextprotocol/sdk/client/streamableHttp.js",
    "@modelcontextprotocol/sdk/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node features.mjs <path to agentry_mcp_feature_server>");
    process.exit(2);
}
const program = process.argv[2];

// What every transport must do; returns nothing, throws on a difference.
async function scenario(client) {
    assert.deepEqual(client.getServerCapabilities(), {
        tools: { listChanged: false },
        logging: {},
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
        completions: {},
    });
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    assert.deepEqual(hints.calls, { readOnlyHint: true });
    assert.deepEqual(hints.chatty, { readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    assert.deepEqual(hints.announce, { readOnlyHint: false, destructiveHint: false, idempotentHint: false });

    // Progress.
    const reports = [];
    let r = await client.callTool({ name: "steps", arguments: { n: 3 } }, undefined, {
        onprogress: (p) => reports.push(p),
    });
    assert.deepEqual(r.content, [{ type: "text", text: "3" }]);
    // The SDK hands notifications to onprogress a microtask late and drops the handler when the
    // result arrives, so reports read in one chunk with the result are not all delivered; those
    // delivered come in order. The wire holds all three (checked by the caller).
    const expected = [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` }));
    assert.deepEqual(reports, expected.slice(0, reports.length));

    // Cancellation reaching the tool's stop token.
    const abort = new AbortController();
    await assert.rejects(
        client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, {
            signal: abort.signal,
            onprogress: () => abort.abort("no longer needed"),
        }),
    );
    r = await client.callTool({ name: "stopped_calls", arguments: {} });
    assert.deepEqual(r.content, [{ type: "text", text: "1" }], "the tool saw its stop token signalled");

    // Logging: nothing before a level is set; then the level and above.
    const logs = [];
    client.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => logs.push(n.params));
    await client.callTool({ name: "chatty", arguments: { text: "a" } });
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "chatty", arguments: { text: "b" } });
    assert.deepEqual(logs, [{ level: "warning", logger: "chatty", data: "warning b" }]);

    // Resources and prompts.
    const { resources } = await client.listResources();
    assert.deepEqual(resources, [
        { uri: "notes://index", name: "index", title: "Index", description: "Note ids", mimeType: "application/json" },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, [{ uriTemplate: "notes://{id}", name: "note", mimeType: "text/markdown" }]);
    assert.deepEqual((await client.readResource({ uri: "notes://index" })).contents, [
        { uri: "notes://index", mimeType: "application/json", text: '["a","b"]' },
    ]);
    assert.deepEqual((await client.readResource({ uri: "notes://x%201" })).contents, [
        { uri: "notes://x%201", mimeType: "text/markdown", text: "Note x 1" },
    ]);
    await assert.rejects(client.readResource({ uri: "other://1" }), (e) => {
        assert.equal(e.code, -32002);
        return true;
    });
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts, [
        {
            name: "greet",
            description: "Greets someone",
            arguments: [
                { name: "name", description: "Who to greet", required: true },
                { name: "style", description: "How", required: false },
            ],
        },
    ]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada", style: "casual" } });
    assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Say hi to Ada" } }]);
    await assert.rejects(client.getPrompt({ name: "greet", arguments: { style: "loud" } }), (e) => {
        assert.equal(e.code, types.ErrorCode.InvalidParams);
        return true;
    });

    // Completion.
    const names = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    assert.deepEqual(names.completion, { values: ["Ada", "Alan"], total: 2, hasMore: false });
    const ids = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "" } });
    assert.deepEqual(ids.completion, { values: ["a", "b"], total: 2, hasMore: false });
    await assert.rejects(
        client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "nme", value: "" } }),
        (e) => {
            assert.equal(e.code, types.ErrorCode.InvalidParams);
            return true;
        },
    );

    // Subscriptions: the update reaches the client (over HTTP once the SDK's GET stream is open).
    const updates = [];
    client.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (n) => updates.push(n.params));
    assert.deepEqual(await client.subscribeResource({ uri: "notes://a" }), {});
    const touch = async () => (await client.callTool({ name: "touch", arguments: { uri: "notes://a" } })).content[0].text;
    for (let i = 0; i !== 100 && (await touch()) !== "1"; ++i) await new Promise((done) => setTimeout(done, 50));
    for (let i = 0; i !== 100 && updates.length === 0; ++i) await new Promise((done) => setTimeout(done, 50));
    assert.deepEqual(updates, [{ uri: "notes://a" }]);
    assert.deepEqual(await client.unsubscribeResource({ uri: "notes://a" }), {});
    assert.equal(await touch(), "0");
    await assert.rejects(client.subscribeResource({ uri: "other://1" }), (e) => {
        assert.equal(e.code, types.ErrorCode.InvalidParams);
        return true;
    });
}

// Over stdio, every byte the server writes recorded by record_stdout.mjs.
{
    const dir = mkdtempSync(path.join(os.tmpdir(), "agentry-mcp-"));
    const record = path.join(dir, "stdout.jsonl");
    try {
        const transport = new stdioModule.StdioClientTransport({
            command: process.execPath,
            args: [path.join(here, "record_stdout.mjs"), record, program],
            stderr: "pipe",
        });
        const methods = new Map();
        const client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" });
        await client.connect(recordingRequests(transport, methods));
        await scenario(client);
        await client.close();
        const lines = readFileSync(record, "utf8").split("\n");
        assert.equal(lines.pop(), "", "the last message ends with a newline");
        const messages = lines.map((line) => JSON.parse(line));
        const version = messages[0].result.protocolVersion;
        assert.equal(version, "2025-11-25");
        const checked = validateServerMessages(version, messages, methods);
        const notes = messages.filter((m) => m.method !== undefined).length;
        const progress = messages.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress);
        assert.deepEqual(progress.slice(0, 4), [1, 2, 3, 1], "steps' three reports, then wait_for_cancel's");
        console.log(`stdio: ${checked} server messages (${notes} notifications) valid against MCP ${version}`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

// Over Streamable HTTP.
{
    const server = await startHttpServer(program);
    const bodies = [];
    const streams = [];
    const methods = new Map();
    const transport = new httpModule.StreamableHTTPClientTransport(new URL(server.url), {
        fetch: recordingFetch(bodies, fetch, streams),
    });
    const client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" });
    await client.connect(recordingRequests(transport, methods));
    await scenario(client);

    // A second session has its own context.
    const other = new clientModule.Client({ name: "agentry-test-2", version: "1.0.0" });
    const otherTransport = new httpModule.StreamableHTTPClientTransport(new URL(server.url));
    await other.connect(otherTransport);
    const count = async (c) => (await c.callTool({ name: "calls", arguments: {} })).content[0].text;
    assert.equal(await count(client), "1");
    assert.equal(await count(client), "2");
    assert.equal(await count(other), "1");
    await otherTransport.terminateSession();
    await other.close();

    await transport.terminateSession();
    await client.close();
    await Promise.all(streams);
    const sse = bodies.filter((m) => m.method !== undefined);
    assert.ok(sse.some((m) => m.method === "notifications/progress"), "progress came on an SSE stream");
    const checked = validateServerMessages("2025-11-25", bodies, methods);
    console.log(`http: ${checked} server messages (${sse.length} notifications on SSE streams) valid against MCP 2025-11-25`);

    // Raw HTTP: an SSE answer, the GET stream, and 2026-07-28.
    const post = (body, headers = {}) =>
        fetch(server.url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
            body: JSON.stringify(body),
        });
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
    const session = init.headers.get("mcp-session-id");
    const inSession = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const steps = await post(
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps", arguments: { n: 2 }, _meta: { progressToken: "s" } } },
        inSession,
    );
    assert.equal(steps.headers.get("content-type"), "text/event-stream");
    const stepMessages = sseMessages(await steps.text());
    assert.deepEqual(stepMessages.map((m) => m.method ?? "result"), ["notifications/progress", "notifications/progress", "result"]);
    const raw = new Map([["1", "initialize"], ["2", "tools/call"], ["3", "logging/setLevel"], ["4", "tools/call"]]);
    validateServerMessages("2025-11-25", [await init.json(), ...stepMessages], raw);
    // Without text/event-stream in Accept: JSON, the notifications dropped.
    const plain = await post(
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps", arguments: { n: 2 }, _meta: { progressToken: "s" } } },
        { ...inSession, accept: "application/json" },
    );
    assert.equal(plain.headers.get("content-type"), "application/json");

    const get = await fetch(server.url, { headers: { accept: "text/event-stream", ...inSession } });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("content-type"), "text/event-stream");
    assert.equal(get.headers.get("connection"), "close", "the connection is closed after the GET stream, and says so");
    const streamed = get.text();
    assert.equal((await post({ jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "info" } }, inSession)).status, 200);
    const announced = await (await post({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "announce", arguments: { text: "hello" } } }, inSession)).json();
    assert.deepEqual(announced.result.content, [{ type: "text", text: "1" }], "one GET stream received it");
    assert.equal((await fetch(server.url, { method: "DELETE", headers: inSession })).status, 200);
    const onStream = sseMessages(await streamed);  // ends with the session
    assert.deepEqual(onStream, [
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "app", data: "hello" } },
    ]);
    validateServerMessages("2025-11-25", onStream, raw);

    // 2026-07-28: no session; the version in the header and in _meta.
    const meta = { "io.modelcontextprotocol/protocolVersion": STATELESS, "io.modelcontextprotocol/clientCapabilities": {} };
    const stateless = { "mcp-protocol-version": STATELESS };
    // The standard headers: Mcp-Method always, Mcp-Name for a named tool, prompt or resource.
    const routed = (method, name) => ({ ...stateless, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) });
    const discover = await (await post({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }, routed("server/discover"))).json();
    assert.deepEqual(discover.result.supportedVersions, ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", STATELESS]);
    const list = await (await post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } }, routed("tools/list"))).json();
    assert.equal(list.result.resultType, "complete");
    const call = await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { _meta: { ...meta, progressToken: 9 }, name: "steps", arguments: { n: 1 } } }, routed("tools/call", "steps"));
    const callMessages = sseMessages(await call.text());
    const read = await (await post({ jsonrpc: "2.0", id: 4, method: "resources/read", params: { _meta: meta, uri: "notes://7" } }, routed("resources/read", "notes://7"))).json();
    const prompt = await (await post({ jsonrpc: "2.0", id: 5, method: "prompts/get", params: { _meta: meta, name: "greet", arguments: { name: "Bo" } } }, routed("prompts/get", "greet"))).json();
    const mismatch = await post({ jsonrpc: "2.0", id: 6, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2025-11-25" } } }, routed("tools/list"));
    assert.equal(mismatch.status, 400);
    const mismatchBody = await mismatch.json();
    assert.equal(mismatchBody.error.code, -32020);
    const unsupported = await post({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2030-01-01" } } }, { "mcp-protocol-version": "2030-01-01" });
    assert.equal(unsupported.status, 400);
    const unsupportedBody = await unsupported.json();
    assert.equal(unsupportedBody.error.code, -32022);
    // A tools/call whose Mcp-Name names another tool than its body: 400, -32020.
    const misrouted = await post({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { _meta: meta, name: "steps", arguments: { n: 1 } } }, routed("tools/call", "add"));
    assert.equal(misrouted.status, 400);
    const misroutedBody = await misrouted.json();
    assert.deepEqual(misroutedBody.error, {
        code: -32020,
        message: 'Bad Request: the Mcp-Name header "add" differs from the request\'s params.name "steps"',
    });
    const ids = new Map([["1", "server/discover"], ["2", "tools/list"], ["3", "tools/call"], ["4", "resources/read"], ["5", "prompts/get"], ["6", "tools/list"], ["7", "tools/list"], ["8", "tools/call"]]);
    const all = [discover, list, ...callMessages, read, prompt, mismatchBody, unsupportedBody, misroutedBody];
    validateServerMessages(STATELESS, all, ids);
    console.log(`http ${STATELESS}: ${all.length} messages valid against MCP ${STATELESS}`);
    await server.stop();
}
