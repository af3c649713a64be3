// SPDX-License-Identifier: BSL-1.0
// Approval over MCP against the official SDK client (current pin), over stdio and Streamable
// HTTP: "transfer" of agentry_mcp_requests_server needs approval, which the server asks for by
// elicitation before each call.
//
//   node approval.mjs <path to agentry_mcp_requests_server>
//
//  - a client declaring elicitation: its handler answers accept (the call runs with the
//    arguments shown, in canonical form), decline and cancel (the call does not run, isError);
//    the question is exact and valid against the negotiated version's schema;
//  - a client without elicitation: the call is refused with the reason, and nothing is asked;
//  - a stateless 2026-07-28 call over raw HTTP: an InputRequiredResult (valid against that
//    version's schema), then the call again with the answer.
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";

import { prerequisites, schemaErrors, startHttpServer } from "./common.mjs";

const [clientModule, stdioModule, httpModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk/client/index.js",
    "@modelcontextprotocol/sdk/client/stdio.js",
    "@modelcontextprotocol/sdk/client/streamableHttp.js",
    "@modelcontextprotocol/sdk/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node approval.mjs <path to agentry_mcp_requests_server>");
    process.exit(2);
}
const program = process.argv[2];

const QUESTION =
    'Allow the tool "transfer" (permission: destructive) to run with these arguments?\n{"amount":1000000,"to":"bob"}';
const DENIED = "The user denied this call of transfer. It was not run; do not make it again unchanged.";
const DISMISSED = "The user dismissed the approval of this call of transfer without deciding. It was not run.";
const REFUSED =
    "agentry: transfer needs approval (its policy says needs_approval), which this MCP server asks the client's " +
    "user for by elicitation, but the client did not declare the elicitation capability (form mode) in " +
    "initialize; the call was not run.";

function client(capabilities) {
    const asked = { questions: [], answers: [] };
    asked.client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" }, { capabilities });
    if (capabilities.elicitation)
        asked.client.setRequestHandler(types.ElicitRequestSchema, async (request) => {
            asked.questions.push(request.params);
            return asked.answers.shift();
        });
    return asked;
}

async function transfer(c) {
    // The model's spelling: the approval shows, and the tool runs with, the canonical form.
    const r = await c.callTool({ name: "transfer", arguments: { to: "bob", amount: 1e6 } });
    return [r.isError, r.content[0].text];
}

async function approving(asked) {
    asked.answers.push({ action: "accept", content: {} }, { action: "decline" }, { action: "cancel" });
    assert.deepEqual(await transfer(asked.client), [false, "sent 1000000 to bob"]);
    assert.deepEqual(await transfer(asked.client), [true, DENIED]);
    assert.deepEqual(await transfer(asked.client), [true, DISMISSED]);
    assert.equal(asked.questions.length, 3);
    for (const params of asked.questions) {
        assert.deepEqual(params, { mode: "form", message: QUESTION, requestedSchema: { type: "object", properties: {} } });
        assert.equal(schemaErrors("2025-11-25", "ElicitRequestFormParams", params), "");
    }
}

async function refusing(asked) {
    assert.deepEqual(await transfer(asked.client), [true, REFUSED]);
    assert.equal(asked.questions.length, 0);
}

const stdio = () =>
    new stdioModule.StdioClientTransport({ command: program, args: [], stderr: "pipe" });

for (const [name, check, capabilities] of [
    ["accept, decline, cancel", approving, { elicitation: {} }],
    ["no elicitation", refusing, {}],
]) {
    const asked = client(capabilities);
    await asked.client.connect(stdio());
    await check(asked);
    await asked.client.close();
    console.log(`stdio, ${name}: passed`);
}

{
    const server = await startHttpServer(program);
    for (const [name, check, capabilities] of [
        ["accept, decline, cancel", approving, { elicitation: { form: {} } }],
        ["no elicitation", refusing, {}],
    ]) {
        const transport = new httpModule.StreamableHTTPClientTransport(new URL(server.url));
        const asked = client(capabilities);
        await asked.client.connect(transport);
        await check(asked);
        await transport.terminateSession();
        await asked.client.close();
        console.log(`http, ${name}: passed`);
    }
    // Stateless 2026-07-28: the question in an InputRequiredResult, the answer in the call again.
    const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    const call = async (id, more) => {
        const response = await fetch(server.url, {
            method: "POST",
            headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                "mcp-protocol-version": "2026-07-28",
                "mcp-method": "tools/call",
                "mcp-name": "transfer",
            },
            body: JSON.stringify({
                jsonrpc: "2.0",
                id,
                method: "tools/call",
                params: { _meta: meta, name: "transfer", arguments: { to: "bob", amount: 1e6 }, ...more },
            }),
        });
        assert.equal(response.status, 200);
        return response.json();
    };
    const asked = await call(1, {});
    assert.equal(schemaErrors("2026-07-28", "InputRequiredResult", asked.result), "");
    assert.deepEqual(asked.result.inputRequests, {
        approval: {
            method: "elicitation/create",
            params: { mode: "form", message: QUESTION, requestedSchema: { type: "object", properties: {} } },
        },
    });
    assert.equal(schemaErrors("2026-07-28", "ElicitRequest", asked.result.inputRequests.approval), "");
    const state = asked.result.requestState;
    const accepted = await call(2, { inputResponses: { approval: { action: "accept" } }, requestState: state });
    assert.equal(schemaErrors("2026-07-28", "CallToolResult", accepted.result), "");
    assert.deepEqual(accepted.result, {
        content: [{ type: "text", text: "sent 1000000 to bob" }],
        isError: false,
        resultType: "complete",
    });
    const declined = await call(3, { inputResponses: { approval: { action: "decline" } }, requestState: state });
    assert.deepEqual([declined.result.isError, declined.result.content[0].text], [true, DENIED]);
    console.log("http 2026-07-28, input_required then accept and decline: passed");
    await server.stop();
}
