// SPDX-License-Identifier: BSL-1.0
// The demo end to end, as scripts/demo.sh runs it: starts demo_model_server.mjs on 127.0.0.1,
// runs the travel agent against it and checks the printed run: every turn, the invalid call
// and its repair, the failing and the slow tool, usage, and the answer; that the README's copy
// of the output is that run, line by line and in order (ports, timings and token counts
// aside); then that another request gets the scripted model's answer that it only plans that
// trip.
//
//   node examples/demo_check.mjs <path to travel_agent>

import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const agent = process.argv[2];

const server = spawn(process.execPath, [path.join(here, "demo_model_server.mjs"), "0"], { stdio: ["pipe", "pipe", "inherit"] });
const port = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
        out += d;
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(m[1]);
    });
    server.on("exit", () => reject(new Error("the model server exited")));
});

const runAgent = (args) => spawnSync(agent, args, {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, AGENTRY_BASE_URL: `http://127.0.0.1:${port}/v1`, AGENTRY_MODEL: "scripted-travel-model",
           OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" },
});
const run = runAgent([]);
// Another request: the scripted model says it only plans its trip.
const other = runAgent(["What is the weather in Rome?"]);
server.kill();
if (other.status !== 0 || !/^answer: I am the demo's scripted model: I only plan the scripted trip/m.test(other.stdout ?? "")) {
    console.error(`demo_check: another request: exit status ${other.status}\n${other.stdout ?? ""}${other.stderr ?? ""}`);
    process.exit(1);
}
process.stdout.write(run.stdout ?? "");
process.stderr.write(run.stderr ?? "");

const expected = [
    /^-- turn 1$/m, /^-- turn 4$/m,
    /search_flights invalid_arguments after [\d.]+ ms: search_flights: invalid arguments: \/from: must match the regular expression \^\[A-Z\]\{3\}\$/,
    /search_flights ok after/,
    /approval: book_hotel \{.*"nights":3.*\} -> approved/,
    /book_hotel tool_error after [\d.]+ ms: book_hotel failed: no rooms left on 2026-12-04 in Lisbon/,
    /book_hotel ok after/,
    /convert_currency ok after [\d.]+ ms: 139\.32/,
    /get_forecast ok after/,
    /tokens: \d+ in, \d+ out/,
    /^-- completed after 4 turns, 6 tool calls, \d+ tokens in, \d+ out, \d+ ms$/m,
    /^answer: Here is your Lisbon trip/m,
];
const missing = expected.filter((re) => !re.test(run.stdout ?? ""));
if (run.status !== 0 || missing.length) {
    console.error(`demo_check: exit status ${run.status}${run.error ? ` (${run.error.message})` : ""}; missing: ${missing.join(", ")}`);
    process.exit(1);
}

// The README's block of the output, against this run: the same lines in the same order, once
// what varies between runs is masked.
const mask = (line) => line.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/after [\d.]+ ms/g, "after T ms")
    .replace(/\d+ tokens in, \d+ out, \d+ ms/g, "N tokens in, N out, T ms")
    .replace(/tokens: \d+ in, \d+ out/g, "tokens: N in, N out")
    .trimEnd();
const readme = readFileSync(path.join(here, "..", "README.md"), "utf8");
const block = /Its output \([^)]*\)[^`]*```text\n([\s\S]*?)```/.exec(readme);
if (!block) {
    console.error("demo_check: README.md has no block of the demo's output (\"Its output (...)\" and a ```text block)");
    process.exit(1);
}
const documented = block[1].split("\n").map(mask).filter((l) => l !== "");
const printed = (run.stdout ?? "").split("\n").map(mask).filter((l) => l !== "");
for (let i = 0; i < Math.max(documented.length, printed.length); ++i) {
    if (documented[i] !== printed[i]) {
        console.error(`demo_check: README.md's output differs from the run at line ${i + 1} (masked):\n` +
                      `  README: ${documented[i] ?? "(nothing)"}\n  run:    ${printed[i] ?? "(nothing)"}`);
        process.exit(1);
    }
}
console.log("demo_check: the demo ran end to end");
