// SPDX-License-Identifier: BSL-1.0
// Hostile input over stdio against examples/mcp_server: garbage, oversized messages, deep
// nesting, and a storm of 10,000 calls. Each message gets exactly one answer (valid against the
// MCP 2025-11-25 schema), the server never crashes, ends with status 0 when its input ends, and
// its memory stays bounded: its resident size after the storm is within 4 MiB of its size after
// the first 5,000 calls.
//
//   node hostile_stdio.mjs <path to mcp_server>
//
// Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

import { messageProblems, prerequisites } from "./common.mjs";

await prerequisites();
if (process.argv.length !== 3) {
    console.error("usage: node hostile_stdio.mjs <path to mcp_server>");
    process.exit(2);
}

// Under AddressSanitizer, freed memory is held in a quarantine of up to 256 MiB to catch late
// uses; a small one keeps the resident size a measure of what the server itself holds.
const asan = [process.env.ASAN_OPTIONS, "quarantine_size_mb=4"].filter(Boolean).join(":");
const child = spawn(process.argv[2], [], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ASAN_OPTIONS: asan } });
const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
process.on("exit", () => child.kill("SIGKILL"));
let stderr = "";
child.stderr.on("data", (chunk) => (stderr += chunk));
child.stdin.on("error", () => {});

// Answers, in order, as parsed JSON; waiters for a count of them.
const answers = [];
let pending = "";
let waiter = null;
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
    pending += chunk;
    let end;
    while ((end = pending.indexOf("\n")) !== -1) {
        answers.push(JSON.parse(pending.slice(0, end)));
        pending = pending.slice(end + 1);
    }
    if (waiter && answers.length >= waiter.count) waiter.resolve();
});
exited.then(() => waiter?.reject(new Error(`the server exited early; stderr:\n${stderr}`)));

function until(count) {
    if (answers.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => (waiter = { count, resolve, reject }));
}

// Sends lines (strings or Buffers, without their newline); resolves to their answers.
async function exchange(lines) {
    const start = answers.length;
    for (const line of lines) child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from("\n")]));
    await until(start + lines.length);
    return answers.slice(start, start + lines.length);
}

// Every answer is checked against the schema, with the method of its request when it has an id.
const methods = new Map();
const request = (id, method, params) => {
    methods.set(JSON.stringify(id), method);
    return JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
};
const call = (id, name, args) => request(id, "tools/call", { name, arguments: args });

function resident() {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

// ---- handshake -----------------------------------------------------------------------------

let [init] = await exchange([
    request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "h", version: "1" } }),
]);
assert.equal(init.result.protocolVersion, "2025-11-25");
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");

// ---- a storm of 10,000 calls -----------------------------------------------------------------

const storm = 10000;
const lines = [];
for (let i = 0; i < storm; ++i) lines.push(call(1000 + i, "add", { a: i, b: i % 7 }));
const first = await exchange(lines.slice(0, storm / 2));
const warm = resident();
let got = [...first, ...(await exchange(lines.slice(storm / 2)))];
const after = resident();
assert.equal(got.length, storm);
for (let i = 0; i < storm; ++i) {
    assert.equal(got[i].id, 1000 + i, "answers in order, one per call");
    assert.equal(got[i].result.content[0].text, String(i + (i % 7)));
}
const margin = 4 * 1024 * 1024;
assert.ok(after - warm <= margin, `the resident size grew by ${after - warm} bytes during the storm`);

// ---- garbage: one error each, no id ---------------------------------------------------------

let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const garbage = [
    "garbage", "{", "}", "[]", "[1,2]", "null", "true", '"text"', "42", "{}", '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"2.0","method":1}', '{"jsonrpc":"2.0","method":"ping","id":{}}', " ", "\t",
    Buffer.from([0xff, 0xfe, 0x00, 0x7b]), Buffer.from('{"a":"\\ud800"}'), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    "\u0000", '{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}',
];
for (let i = 0; i < 1000; ++i) {
    const bytes = Buffer.alloc(1 + Math.floor(random() * 200));
    for (let j = 0; j < bytes.length; ++j) {
        let b;
        do b = Math.floor(random() * 256);
        while (b === 0x0a || b === 0x0d);
        bytes[j] = b;
    }
    if (i % 2 === 0) bytes[0] = "{[\"-0tfn"[i % 8].charCodeAt(0);  // start like JSON half the time
    garbage.push(bytes);
}
got = await exchange(garbage);
for (const [i, answer] of got.entries()) {
    assert.ok(answer.error, `garbage line ${i} gets an error: ${JSON.stringify(answer)}`);
    assert.ok([-32700, -32600].includes(answer.error.code), `garbage line ${i}: ${JSON.stringify(answer)}`);
}

// ---- oversized: answered without an id, then the next message is served ------------------

const over = call(10, "get_weather", { city: "x".repeat(5 * 1024 * 1024) });
methods.delete("10");
got = await exchange([over, request(11, "ping")]);
assert.deepEqual(got[0], {
    jsonrpc: "2.0",
    error: { code: -32600, message: "Invalid Request: the message is longer than the limit of 4194304 bytes" },
});
assert.deepEqual(got[1], { jsonrpc: "2.0", id: 11, result: {} });
// Under the message limit: served. Over the registry's 1 MiB limit on arguments: a tool error.
got = await exchange([
    call(12, "get_weather", { city: "y".repeat(4 * 1024 * 1024 - 200) }),
    call(13, "get_weather", { city: "z".repeat(1000 * 1000) }),
]);
assert.equal(got[0].result.isError, true);
assert.match(got[0].result.content[0].text, /^get_weather: invalid arguments: the arguments are 4194115 bytes long, more than the limit of 1048576\./);
assert.deepEqual(got[1].result.structuredContent, { temperature: 18.5, condition: "sun" });

// ---- deep nesting --------------------------------------------------------------------------

const depth = 1000000;
got = await exchange([
    `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"add","arguments":{"a":${"[".repeat(depth)}${"]".repeat(depth)},"b":1}}}`,
    "[".repeat(depth) + "]".repeat(depth),
    '{"a":'.repeat(100000) + "1" + "}".repeat(100000),
    "[".repeat(depth),
    call(21, "add", { a: JSON.parse("[".repeat(100) + "]".repeat(100)), b: 1 }),
]);
methods.set("20", "tools/call");
assert.equal(got[0].id, 20);
assert.equal(got[0].error.code, -32600);
assert.equal(got[1].error.code, -32600);
assert.equal(got[2].error.code, -32600);
assert.equal(got[3].error.code, -32600);
assert.equal(got[4].result.isError, true);
assert.match(got[4].result.content[0].text, /nesting deeper than 64 levels/);

// ---- the end ---------------------------------------------------------------------------------

child.stdin.end();
const { code, signal } = await exited;
assert.equal(signal, null, `the server died of ${signal}; stderr:\n${stderr}`);
assert.equal(code, 0);
assert.equal(pending, "", "every answer ends with a newline");
const logs = stderr.split("\n").filter((line) => line !== "");
assert.deepEqual(logs.filter((line) => !line.startsWith("agentry: mcp: ")), [], "stderr holds only logs");

const problems = answers
    .map((a) => messageProblems("2025-11-25", a, methods.get(JSON.stringify(a.id))))
    .filter((p) => p !== "");
assert.deepEqual(problems, [], problems.slice(0, 5).join("\n"));
console.log(
    `hostile stdio: ${answers.length} answers valid against MCP 2025-11-25; resident size ${(after / 1048576).toFixed(1)} MiB ` +
        `after 10,000 calls, ${(warm / 1048576).toFixed(1)} MiB after 5,000`,
);
