// SPDX-License-Identifier: BSL-1.0
// Requests of the server to its client, against the official SDK client (current pin) over
// stdio and Streamable HTTP:
//
//   node requests.mjs <path to agentry_mcp_requests_server>
//
//  - elicitation/create: the client's handler answers accept (with content), decline and
//    cancel; the tool reads each; the request's message and requestedSchema are exact; over
//    HTTP the client fills in the schema's defaults (form.applyDefaults).
//  - sampling/createMessage: the client's handler answers with text; the request is exact.
//    With tools (the client declares sampling.tools): the model's tool_use answer, then the
//    request with the tool's result, answered with text; both requests exact.
// Every message the server sends is validated against the negotiated version's schema: its
// requests as ServerRequest, its notifications as ServerNotification, its results by method.
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { here, prerequisites, recordingFetch, recordingRequests, schemaErrors, startHttpServer } from "./common.mjs";

const [clientModule, stdioModule, httpModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk/client/index.js",
    "@modelcontextprotocol/sdk/client/stdio.js",
    "@modelcontextprotocol/sdk/client/streamableHttp.js",
    "@modelcontextprotocol/sdk/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node requests.mjs <path to agentry_mcp_requests_server>");
    process.exit(2);
}
const program = process.argv[2];

const SIGNUP_SCHEMA = {
    type: "object",
    properties: {
        name: { type: "string", minLength: 1, maxLength: 40, description: "Your name" },
        age: { type: "integer", minimum: 18, maximum: 130, description: "Your age in years" },
        email: { type: "string", format: "email" },
        tier: { type: "string", enum: ["basic", "pro"], default: "basic" },
        newsletter: { type: "boolean", default: false },
    },
    required: ["name", "age"],
};

// A client declaring `elicitation` and sampling, whose handlers answer from `answers` in turn
// and record the params they were sent.
function askedClient(elicitation) {
    const client = new clientModule.Client(
        { name: "agentry-test", version: "1.0.0" },
        { capabilities: { elicitation, sampling: { tools: {} } } },
    );
    const asked = { client, elicitations: [], samplings: [], answers: [] };
    client.setRequestHandler(types.ElicitRequestSchema, async (request) => {
        asked.elicitations.push(request.params);
        return asked.answers.shift();
    });
    client.setRequestHandler(types.CreateMessageRequestSchema, async (request) => {
        asked.samplings.push(request.params);
        if (request.params.tools === undefined)
            return { role: "assistant", content: { type: "text", text: "A story." }, model: "fake-model", stopReason: "endTurn" };
        const last = request.params.messages.at(-1);
        if (Array.isArray(last.content) && last.content[0].type === "tool_result")
            return { role: "assistant", content: { type: "text", text: `Take an umbrella: ${last.content[0].content[0].text}.` },
                     model: "fake-model", stopReason: "endTurn" };
        return { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "get_weather", input: { city: "Paris" } }],
                 model: "fake-model", stopReason: "toolUse" };
    });
    return asked;
}

// With `defaults`, the client fills in the requestedSchema's defaults of what its user left out
// (the SDK's form.applyDefaults): the tier the tool reads is then the default, "basic".
async function scenario(asked, defaults) {
    const { client } = asked;
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false }, logging: {} });
    const content = { name: "Ada", age: 36, email: "ada@example.com" };
    if (!defaults) content.tier = "pro";
    asked.answers.push({ action: "accept", content }, { action: "decline" }, { action: "cancel" });
    const text = async (name, args = {}) => {
        const r = await client.callTool({ name, arguments: args });
        assert.equal(r.isError, false);
        return r.content[0].text;
    };
    assert.equal(await text("signup"), `accepted Ada 36 ada@example.com ${defaults ? "basic" : "pro"}`);
    assert.equal(await text("signup"), "declined");
    assert.equal(await text("signup"), "cancelled");
    assert.equal(asked.elicitations.length, 3);
    for (const params of asked.elicitations) {
        assert.equal(params.message, "Sign up?");
        assert.deepEqual(params.requestedSchema, SIGNUP_SCHEMA);
    }

    assert.equal(await text("summarise", { text: "a long story" }), "fake-model: A story.");
    assert.equal(asked.samplings.length, 1);
    assert.deepEqual(asked.samplings[0].messages, [
        { role: "user", content: { type: "text", text: "Summarise: a long story" } },
    ]);
    assert.equal(asked.samplings[0].systemPrompt, "Be brief.");
    assert.equal(asked.samplings[0].maxTokens, 100);

    assert.equal(await text("forecast", { city: "Paris" }), "fake-model endTurn: Take an umbrella: rain.");
    assert.equal(asked.samplings.length, 3);
    const tools = [{
        name: "get_weather",
        description: "Current weather for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
    }];
    const ask = { role: "user", content: { type: "text", text: "Pack for Paris" } };
    assert.deepEqual(asked.samplings[1], { messages: [ask], maxTokens: 100, tools, toolChoice: { mode: "auto" } });
    assert.deepEqual(asked.samplings[2], {
        messages: [
            ask,
            { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "get_weather", input: { city: "Paris" } }] },
            { role: "user", content: [{ type: "tool_result", toolUseId: "u1", content: [{ type: "text", text: "rain" }] }] },
        ],
        maxTokens: 100,
        tools,
        toolChoice: { mode: "auto" },
    });
}

const RESULT_TYPES = { initialize: "InitializeResult", "tools/call": "CallToolResult" };

// Each message the server sent against the schema of `version`: a request as a ServerRequest,
// a notification as a ServerNotification, a result as its method's result type.
function validate(version, messages, methods) {
    const problems = [];
    let requests = 0;
    for (const m of messages) {
        const text = JSON.stringify(m);
        const envelope = schemaErrors(version, "JSONRPCMessage", m);
        if (envelope) problems.push(`${text}\n  not a JSONRPCMessage: ${envelope}`);
        let type;
        if (m.method !== undefined && m.id !== undefined) {
            type = "ServerRequest";
            ++requests;
        } else if (m.method !== undefined) {
            type = "ServerNotification";
        } else if (m.result !== undefined) {
            type = RESULT_TYPES[methods.get(JSON.stringify(m.id))];
        }
        const value = type === undefined || m.method !== undefined ? m : m.result;
        const errors = type ? schemaErrors(version, type, value) : "";
        if (errors) problems.push(`${text}\n  not a ${type}: ${errors}`);
    }
    assert.deepEqual(problems, [], problems.join("\n"));
    assert.equal(requests, 6, "three elicitation/create and three sampling/createMessage");
    return messages.length;
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
        const asked = askedClient({});
        await asked.client.connect(recordingRequests(transport, methods));
        await scenario(asked, false);
        await asked.client.close();
        const lines = readFileSync(record, "utf8").split("\n");
        assert.equal(lines.pop(), "", "the last message ends with a newline");
        const messages = lines.map((line) => JSON.parse(line));
        const version = messages[0].result.protocolVersion;
        assert.equal(version, "2025-11-25");
        const elicit = messages.find((m) => m.method === "elicitation/create");
        assert.deepEqual(elicit.params, { mode: "form", message: "Sign up?", requestedSchema: SIGNUP_SCHEMA });
        const checked = validate(version, messages, methods);
        console.log(`stdio: ${checked} server messages valid against MCP ${version}`);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

// Over Streamable HTTP: the requests come on the SSE streams of the calls' POSTs.
{
    const server = await startHttpServer(program);
    const bodies = [];
    const streams = [];
    const methods = new Map();
    const transport = new httpModule.StreamableHTTPClientTransport(new URL(server.url), {
        fetch: recordingFetch(bodies, fetch, streams),
    });
    const asked = askedClient({ form: { applyDefaults: true } });
    await asked.client.connect(recordingRequests(transport, methods));
    await scenario(asked, true);
    await transport.terminateSession();
    await asked.client.close();
    await Promise.all(streams);
    const checked = validate("2025-11-25", bodies, methods);
    console.log(`http: ${checked} server messages valid against MCP 2025-11-25`);
    await server.stop();
}
