// SPDX-License-Identifier: BSL-1.0
// The Streamable HTTP rules, request by request, against examples/mcp_server: Origin and Host
// checks, sessions, MCP-Protocol-Version, status codes, size limit, a 2025-06-18 session, and
// malformed HTTP. Every JSON body is checked against the MCP schema of its session's version
// (an error without an id, which only 2025-11-25 allows, against 2025-11-25).
//
//   node http_rules.mjs <path to mcp_server>
//
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";

import { messageProblems, prerequisites, startHttpServer } from "./common.mjs";

await prerequisites();
if (process.argv.length !== 3) {
    console.error("usage: node http_rules.mjs <path to mcp_server>");
    process.exit(2);
}

const server = await startHttpServer(process.argv[2]);
const url = new URL(server.url);
// Every JSON body received: {version of the session, method of the request, body}.
const records = [];

// One HTTP request with exactly these headers; resolves to {status, headers, body}.
function send(method, headers, body = "", path = url.pathname) {
    return new Promise((resolve, reject) => {
        const request = http.request(
            { host: url.hostname, port: url.port, method, path, headers: { host: url.host, ...headers }, agent: false },
            (response) => {
                let text = "";
                response.setEncoding("utf8");
                response.on("data", (chunk) => (text += chunk));
                response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
            },
        );
        request.on("error", reject);
        request.end(body);
    });
}

const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };

// POSTs a JSON-RPC message (or text) in `session`, whose version is `version`; `header` is the
// MCP-Protocol-Version sent (by default `version`; null for none). Records the JSON body.
async function post(message, { session, version = "2025-11-25", header = version, headers = {} } = {}) {
    const h = { ...json, ...headers };
    if (session) h["mcp-session-id"] = session;
    if (session && header !== null) h["mcp-protocol-version"] = header;
    const r = await send("POST", h, typeof message === "string" ? message : JSON.stringify(message));
    if (r.body !== "" && (r.headers["content-type"] ?? "").includes("application/json")) {
        r.json = JSON.parse(r.body);
        records.push({ version, method: message.method, body: r.json });
    }
    return r;
}

function initialize(version, headers = {}) {
    return post(
        {
            jsonrpc: "2.0",
            id: `init-${version}`,
            method: "initialize",
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
        { version, headers },
    );
}

const add = (id, a, b) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a, b } } });

// ---- sessions --------------------------------------------------------------------------------

let r = await initialize("2025-11-25");
assert.equal(r.status, 200);
assert.match(r.headers["content-type"], /^application\/json/);
const session = r.headers["mcp-session-id"];
assert.match(session, /^[0-9a-f]{32}$/);
assert.equal(r.json.result.protocolVersion, "2025-11-25");

r = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { session });
assert.deepEqual([r.status, r.body], [202, ""]);

r = await post(add(1, 2, 3), { session });
assert.equal(r.status, 200);
assert.equal(r.json.result.content[0].text, "5");
assert.equal(r.headers["mcp-session-id"], undefined, "the session id is sent on initialize only");
r = await post(add(11, 2147483647, 1), { session });
assert.equal(r.json.result.content[0].text, "2147483648", "add is exact for every int");

r = await post(add(2, 1, 1));
assert.equal(r.status, 400, "no session id");
assert.equal(r.json.id, 2);
r = await post(add(3, 1, 1), { session: "0123456789abcdef0123456789abcdef" });
assert.equal(r.status, 404, "unknown session id");
assert.equal(r.json.error.code, -32001);

// A second initialize starts a second session.
r = await initialize("2025-11-25");
const second = r.headers["mcp-session-id"];
assert.notEqual(second, session);

// Protocol version header: the negotiated one, another version sessions are held in (answered in
// the session's), or none; anything else is 400.
r = await post(add(4, 1, 1), { session, header: "2025-06-18" });
assert.equal(r.status, 200, "another session version: accepted");
r = await post(add(4, 1, 1), { session, header: "2026-07-28" });
assert.equal(r.status, 400);
assert.match(r.json.error.message, /unsupported MCP-Protocol-Version "2026-07-28"; this session uses 2025-11-25/);
r = await post(add(5, 1, 1), { session, header: "1999-01-01" });
assert.equal(r.status, 400);
r = await post(add(6, 1, 1), { session, header: null });
assert.equal(r.status, 200, "no MCP-Protocol-Version header: the negotiated version");

// Many calls at once on one session, on one connection each.
const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => post(add(100 + i, i, i), { session })));
answers.forEach((a, i) => assert.equal(a.json.result.content[0].text, String(2 * i)));

// ---- a 2025-06-18 session --------------------------------------------------------------------

r = await initialize("2025-06-18");
assert.equal(r.json.result.protocolVersion, "2025-06-18");
const old = r.headers["mcp-session-id"];
r = await post({ jsonrpc: "2.0", id: "l", method: "tools/list" }, { session: old, version: "2025-06-18" });
assert.equal(r.json.result.tools.length, 2);
r = await post(add("c", 1, 2), { session: old, version: "2025-06-18" });
assert.equal(r.json.result.content[0].text, "3");
r = await post({ jsonrpc: "2.0", id: "u", method: "tools/call", params: { name: "nope" } }, { session: old, version: "2025-06-18" });
assert.equal(r.json.error.code, -32602);
r = await post({ jsonrpc: "2.0", id: "m", method: "prompts/list" }, { session: old, version: "2025-06-18" });
assert.equal(r.json.error.code, -32601);

// ---- DNS rebinding protection ------------------------------------------------------------------

r = await initialize("2025-11-25", { origin: "http://evil.example" });
assert.equal(r.status, 403);
assert.equal(r.json.id, undefined);
r = await initialize("2025-11-25", { origin: "null" });
assert.equal(r.status, 403);
r = await initialize("2025-11-25", { origin: "http://localhost.evil.example:80" });
assert.equal(r.status, 403);
for (const origin of ["http://localhost:3000", "https://127.0.0.1", "http://[::1]:8080"]) {
    r = await initialize("2025-11-25", { origin });
    assert.equal(r.status, 200, origin);
}
r = await initialize("2025-11-25", { host: `evil.example:${url.port}` });
assert.equal(r.status, 403, "a Host naming another machine");
r = await initialize("2025-11-25", { host: `localhost:${url.port}` });
assert.equal(r.status, 200);

// ---- HTTP status codes -------------------------------------------------------------------------

r = await send("GET", { accept: "application/json", "mcp-session-id": session });
assert.equal(r.status, 406, "a GET stream needs Accept: text/event-stream");
r = await send("PUT", json, "{}");
assert.equal(r.status, 405);
assert.equal(r.headers.allow, "GET, POST, DELETE");
r = await send("POST", json, "{}", "/other");
assert.equal(r.status, 404);
r = await post(add(7, 1, 1), { session, headers: { "content-type": "text/plain" } });
assert.equal(r.status, 415);
r = await post(add(8, 1, 1), { session, headers: { accept: "text/html" } });
assert.equal(r.status, 406);

r = await post("{not json", { session });
assert.equal(r.status, 400);
assert.equal(r.json.error.code, -32700);
r = await post("[" + JSON.stringify(add(9, 1, 1)) + "]", { session });
assert.equal(r.status, 400);
assert.equal(r.json.error.code, -32600);

// A body over the 4 MiB limit: 413, and the server goes on.
const huge = JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping", params: { pad: "x".repeat(5 * 1024 * 1024) } });
r = await send("POST", { ...json, "mcp-session-id": session }, huge);
assert.equal(r.status, 413);
records.push({ version: "2025-11-25", method: "ping", body: JSON.parse(r.body) });

// Malformed HTTP: 400, and the server goes on.
const raw = await new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end("HELLO\r\n\r\n"));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
});
assert.match(raw, /^HTTP\/1\.1 400 Bad Request/);

// ---- ending sessions -----------------------------------------------------------------------------

r = await send("DELETE", {});
assert.equal(r.status, 400);
r = await send("DELETE", { "mcp-session-id": "nope" });
assert.equal(r.status, 404);
r = await send("DELETE", { "mcp-session-id": second });
assert.equal(r.status, 200);
r = await post(add(11, 1, 1), { session: second });
assert.equal(r.status, 404);
r = await post(add(12, 1, 1), { session });
assert.equal(r.status, 200, "the other sessions go on");

// An error without an id is valid in 2025-11-25 only, whatever the session.
const problems = records
    .map(({ version, method, body }) => messageProblems(body.id === undefined ? "2025-11-25" : version, body, method))
    .filter((p) => p !== "");
assert.deepEqual(problems, [], problems.join("\n"));
assert.ok(records.some((r) => r.version === "2025-06-18"));
await server.stop();
console.log(`http rules: ${records.length} bodies valid against the MCP schema`);
