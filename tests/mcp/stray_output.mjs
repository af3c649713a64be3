// SPDX-License-Identifier: BSL-1.0
// serve_stdio keeps standard output for protocol messages: what a tool prints (printf,
// std::cout) while the server runs goes to standard error.
//
//   node stray_output.mjs <path to agentry_mcp_noisy_server>
//
// Exit status: 0 passed, 1 failed.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";

if (process.argv.length !== 3) {
    console.error("usage: node stray_output.mjs <path to agentry_mcp_noisy_server>");
    process.exit(2);
}

const child = spawn(process.argv[2], [], { stdio: ["pipe", "pipe", "pipe"] });
let stdout = "";
let stderr = "";
child.stdout.on("data", (chunk) => (stdout += chunk));
child.stderr.on("data", (chunk) => (stderr += chunk));
const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
const send = (message) => child.stdin.write(JSON.stringify(message) + "\n");
send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "noisy", arguments: { text: "signal" } } });
send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "noisy", arguments: { text: "again" } } });
child.stdin.end();
assert.equal(await exited, 0);

// Before and after serving, standard output is the program's own.
assert.ok(stdout.startsWith("noise before serving\n"), stdout);
assert.ok(stdout.endsWith("noise after serving\n"), stdout);
const protocol = stdout.slice("noise before serving\n".length, -"noise after serving\n".length).split("\n");
assert.equal(protocol.pop(), "");
const answers = protocol.map((line) => JSON.parse(line));
assert.deepEqual(answers.map((a) => a.id), [1, 2, 3]);
assert.equal(answers[1].result.content[0].text, "signal");
assert.equal(answers[2].result.content[0].text, "again");
for (const noise of ["printf noise", "cout noise", "unflushed noise"]) assert.ok(stderr.includes(noise), stderr);
console.log("stray output: standard output held only protocol messages while serving");
