// SPDX-License-Identifier: BSL-1.0
// Every message mcp::client sends, in a session of each protocol version against the fake
// server (`agentry_mcp_client --emit`), and in its sessions with server-everything when that is
// installed (`--everything`), validated with ajv against the negotiated version's schema: as a
// JSON-RPC message, and as the request or notification type of its method; the answers to the
// fake server's elicitation/create and sampling/createMessage as their result types.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { VERSIONS, prerequisites, repo, schemaErrors } from "./common.mjs";

await prerequisites();
const program = process.argv[2];

const TYPES = {
    initialize: "InitializeRequest",
    "notifications/initialized": "InitializedNotification",
    "tools/list": "ListToolsRequest",
    "tools/call": "CallToolRequest",
    "notifications/cancelled": "CancelledNotification",
    ping: "PingRequest",
    "resources/list": "ListResourcesRequest",
    "prompts/list": "ListPromptsRequest",
};

// The ids of the fake server's requests (client_fake.hpp, mode asks) and their result types.
const ANSWERS = { e1: "ElicitResult", s1: "CreateMessageResult" };

const lines = execFileSync(program, ["--emit"], { encoding: "utf8" }).split("\n").filter((l) => l !== "");
const seen = new Map(VERSIONS.map((v) => [v, new Set()]));
const problems = [];

const everything = path.join(repo, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
let peer = [];
if (existsSync(everything)) {
    const run = spawnSync(program, ["--everything", process.execPath, everything], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    peer = run.stdout.split("\n").filter((l) => l.startsWith("sent ")).map((l) => l.slice(5));
    assert.ok(peer.length > 10, "the messages of the server-everything sessions");
} else {
    console.log(`server-everything is not installed: only the sessions with the fake server are checked`);
}

for (const line of [...lines, ...peer]) {
    const space = line.indexOf(" ");
    const version = line.slice(0, space);
    const message = JSON.parse(line.slice(space + 1));
    assert.ok(seen.has(version), `a session of an unknown version: ${line}`);
    const envelope = schemaErrors(version, "JSONRPCMessage", message);
    if (envelope) problems.push(`${line}\n  not a JSONRPCMessage of ${version}: ${envelope}`);
    const type = TYPES[message.method];
    if (!type) {
        // The client's answer to a server request: checked above, and a result by its type.
        const answered = ANSWERS[message.id];
        if (message.method === undefined && message.result !== undefined && answered) {
            const errors = schemaErrors(version, answered, message.result);
            if (errors) problems.push(`${line}\n  not a ${answered} of ${version}: ${errors}`);
        }
        if (message.method === undefined) continue;
        problems.push(`${line}\n  a message of no expected method`);
        continue;
    }
    seen.get(version).add(message.method);
    const errors = schemaErrors(version, type, message);
    if (errors) problems.push(`${line}\n  not a ${type} of ${version}: ${errors}`);
}
assert.deepEqual(problems, [], problems.join("\n"));
for (const [version, methods] of seen)
    assert.deepEqual([...methods].sort(), Object.keys(TYPES).sort(), `every kind of message in the ${version} session`);
console.log(`${lines.length} + ${peer.length} client messages valid against the schemas of ${VERSIONS.join(", ")}`);
