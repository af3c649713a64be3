// SPDX-License-Identifier: BSL-1.0
// examples/mcp_server in a session of each protocol version it negotiates.
//
//   node versions.mjs <path to mcp_server>
//
//  - Over stdio, for each of 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 (and a version
//    not served, which gets 2025-11-25): initialize, list, calls, errors; the version answered
//    and the features of each answer are checked, and every message the server writes is
//    validated against that version's schema.
//  - The official SDK client at 1.11.0 (which speaks 2025-03-26) runs the common scenario over
//    stdio and over Streamable HTTP, its messages validated against the 2025-03-26 schema.
//  - A 2024-11-05 initialize over Streamable HTTP.
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

import {
    VERSIONS,
    WEATHER_INVALID,
    here,
    messageProblems,
    prerequisites,
    recordingFetch,
    recordingRequests,
    scenario,
    startHttpServer,
    validateServerMessages,
} from "./common.mjs";

const [clientModule, stdioModule, httpModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk-1.11/client/index.js",
    "@modelcontextprotocol/sdk-1.11/client/stdio.js",
    "@modelcontextprotocol/sdk-1.11/client/streamableHttp.js",
    "@modelcontextprotocol/sdk-1.11/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node versions.mjs <path to mcp_server>");
    process.exit(2);
}
const program = process.argv[2];

// A stdio server spoken to line by line: request() sends one message and resolves with the
// next line the server writes (answers leave in request order).
function startStdio() {
    const child = spawn(program, [], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const lines = [];
    const waiting = [];
    let closed = false;
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
        const message = JSON.parse(line);
        lines.push(message);
        if (waiting.length > 0) waiting.shift().resolve(message);
    });
    const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
    exited.then((code) => {
        closed = true;
        for (const w of waiting.splice(0)) w.reject(new Error(`the server exited (${code}):\n${stderr}`));
    });
    return {
        lines,
        send(message) {
            child.stdin.write(JSON.stringify(message) + "\n");
        },
        request(message) {
            if (closed) return Promise.reject(new Error(`the server exited:\n${stderr}`));
            return new Promise((resolve, reject) => {
                waiting.push({ resolve, reject });
                child.stdin.write(JSON.stringify(message) + "\n");
            });
        },
        async stop() {
            child.stdin.end();
            assert.equal(await exited, 0, `exit status; stderr:\n${stderr}`);
            const logs = stderr.split("\n").filter((line) => line !== "");
            assert.deepEqual(logs.filter((line) => !line.startsWith("agentry: mcp: ")), [], "stderr holds only logs");
        },
    };
}

// One session over stdio asking for `asked`; checks the answers and that every line the server
// wrote is valid against the schema of the version it answered. Returns the number of messages.
async function rawSession(asked) {
    const version = VERSIONS.includes(asked) ? asked : VERSIONS.at(-1);
    const annotated = version >= "2025-03-26";
    const structured = version >= "2025-06-18";
    const iconic = version >= "2025-11-25";
    const server = startStdio();
    const methods = new Map();
    let id = 0;
    const request = (method, params) => {
        id += 1;
        methods.set(JSON.stringify(id), method);
        return server.request(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    };
    const init = await request("initialize", {
        protocolVersion: asked,
        capabilities: {},
        clientInfo: { name: "agentry-test", version: "1.0.0" },
    });
    assert.deepEqual(init.result, {
        protocolVersion: version,
        capabilities: { tools: { listChanged: false }, logging: {} },
        serverInfo: iconic
            ? { name: "weather", version: "1.0.0", icons: [{ src: "https://example.com/weather.png", mimeType: "image/png", sizes: ["48x48"] }] }
            : { name: "weather", version: "1.0.0" },
    });
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    assert.deepEqual((await request("ping")).result, {});

    const { tools } = (await request("tools/list")).result;
    assert.deepEqual(tools.map((t) => t.name), ["get_weather", "add"]);
    const [weather, add] = tools;
    const expectedKeys = ["name", "description", "inputSchema"];
    if (structured) expectedKeys.push("outputSchema", "title");
    if (annotated) expectedKeys.push("annotations");
    if (iconic) expectedKeys.push("icons");
    assert.deepEqual(Object.keys(weather), expectedKeys);
    assert.deepEqual(weather.icons, iconic ? [{ src: "https://example.com/sun.svg", sizes: ["any"] }] : undefined);
    assert.equal(add.icons, undefined);
    const weatherHints = structured ? { readOnlyHint: true } : { title: "Weather", readOnlyHint: true };
    assert.deepEqual(weather.annotations, annotated ? weatherHints : undefined);
    assert.deepEqual(add.annotations, annotated ? { readOnlyHint: true, openWorldHint: false } : undefined);
    assert.equal(add.title, undefined);

    let r = (await request("tools/call", { name: "get_weather", arguments: { city: "Paris" } })).result;
    const paris = { content: [{ type: "text", text: '{"temperature":18.5,"condition":"rain"}' }], isError: false };
    if (structured) paris.structuredContent = { temperature: 18.5, condition: "rain" };
    assert.deepEqual(r, paris);
    r = (await request("tools/call", { name: "add", arguments: { a: 2, b: 40 } })).result;
    assert.deepEqual(r, { content: [{ type: "text", text: "42" }], isError: false });
    r = (await request("tools/call", { name: "get_weather", arguments: { city: "Paris", unit: "kelvin" } })).result;
    assert.deepEqual(r, { content: [{ type: "text", text: WEATHER_INVALID }], isError: true });

    assert.equal((await request("tools/call", { name: "get_wether", arguments: {} })).error.code, -32602);
    assert.equal((await request("tools/call", { arguments: {} })).error.code, -32602);
    assert.equal((await request("resources/list")).error.code, -32601);
    assert.equal((await request("initialize", { protocolVersion: version })).error.code, -32600);
    await server.stop();

    assert.equal(server.lines.length, methods.size, "one answer per request");
    const problems = server.lines.map((m) => messageProblems(version, m, methods.get(JSON.stringify(m.id))));
    assert.deepEqual(problems.filter((p) => p !== ""), [], problems.join("\n"));
    return server.lines.length;
}

const summary = [];
for (const asked of [...VERSIONS, "2024-10-07"]) {
    const count = await rawSession(asked);
    summary.push(`${asked}: ${count} messages`);
}
console.log(`stdio sessions valid against their versions' schemas: ${summary.join(", ")}`);

// The SDK client at 1.11.0 over stdio, through record_stdout.mjs to see every byte written.
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
        await scenario(client, types, "2025-03-26");
        await client.close();
        const lines = readFileSync(record, "utf8").split("\n");
        assert.equal(lines.pop(), "", "the last message ends with a newline");
        const messages = lines.map((line) => JSON.parse(line));
        assert.equal(messages[0].result.protocolVersion, "2025-03-26");
        const checked = validateServerMessages("2025-03-26", messages, methods);
        assert.equal(checked, methods.size, "one answer per request");
        console.log(`SDK 1.11.0 over stdio: ${checked} server messages valid against MCP 2025-03-26`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

// The SDK client at 1.11.0 over Streamable HTTP, then a 2024-11-05 initialize over HTTP.
{
    const server = await startHttpServer(program);
    const bodies = [];
    const methods = new Map();
    // 1.11.0 has no fetch option: it calls the global fetch, recorded here while the client runs.
    const originalFetch = globalThis.fetch;
    const recording = recordingFetch(bodies, originalFetch);
    globalThis.fetch = recording;
    const transport = new httpModule.StreamableHTTPClientTransport(new URL(server.url));
    const client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" });
    await client.connect(recordingRequests(transport, methods));
    assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
    assert.equal(bodies[0].result.protocolVersion, "2025-03-26");
    await scenario(client, types, "2025-03-26");
    await transport.terminateSession();
    await client.close();
    globalThis.fetch = originalFetch;
    const checked = validateServerMessages("2025-03-26", bodies, methods);
    assert.equal(checked, methods.size, "one answer per request");
    console.log(`SDK 1.11.0 over HTTP: ${checked} server messages valid against MCP 2025-03-26`);

    const post = (body, session) =>
        fetch(server.url, {
            method: "POST",
            headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                ...(session ? { "mcp-session-id": session } : {}),
            },
            body: JSON.stringify(body),
        });
    const init = await post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old", version: "0.1" } },
    });
    assert.equal(init.status, 200);
    const session = init.headers.get("mcp-session-id");
    const initBody = await init.json();
    assert.equal(initBody.result.protocolVersion, "2024-11-05");
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
    assert.equal(list.status, 200);
    const listBody = await list.json();
    assert.deepEqual(Object.keys(listBody.result.tools[0]), ["name", "description", "inputSchema"]);
    const old = new Map([
        ["1", "initialize"],
        ["2", "tools/list"],
    ]);
    validateServerMessages("2024-11-05", [initBody, listBody], old);
    await server.stop();
    console.log("2024-11-05 over HTTP: initialize and tools/list valid against MCP 2024-11-05");
}
