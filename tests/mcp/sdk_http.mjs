// SPDX-License-Identifier: BSL-1.0
// The official MCP TypeScript SDK client against examples/mcp_server over Streamable HTTP.
//
//   node sdk_http.mjs <path to mcp_server>
//
// Starts the server on 127.0.0.1 with a free port, runs the common scenario (common.mjs), ends
// the session with DELETE, and checks every body the server sent against the MCP schema of the
// negotiated version. Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";

import {
    prerequisites,
    recordingFetch,
    recordingRequests,
    scenario,
    startHttpServer,
    validateServerMessages,
} from "./common.mjs";

const [clientModule, httpModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk/client/index.js",
    "@modelcontextprotocol/sdk/client/streamableHttp.js",
    "@modelcontextprotocol/sdk/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node sdk_http.mjs <path to mcp_server>");
    process.exit(2);
}

const server = await startHttpServer(process.argv[2]);
const bodies = [];
const methods = new Map();
const transport = new httpModule.StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(bodies) });
const client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" });
await client.connect(recordingRequests(transport, methods));
assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
assert.equal(transport.protocolVersion, "2025-11-25");

await scenario(client, types);

const session = transport.sessionId;
await transport.terminateSession();
const after = await fetch(server.url, {
    method: "POST",
    headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" }),
});
assert.equal(after.status, 404, "a request in an ended session");
await client.close();

const checked = validateServerMessages("2025-11-25", bodies, methods);
assert.equal(checked, methods.size, "one answer per request");
await server.stop();
console.log(`http: ${checked} server messages valid against MCP 2025-11-25`);
