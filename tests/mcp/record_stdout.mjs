// SPDX-License-Identifier: BSL-1.0
// node record_stdout.mjs <record file> <program> [arguments...]
//
// Runs the program with this process's standard input and error, copies its standard output
// to ours and to <record file>: the exact bytes an MCP client reads from a stdio server.
// Each chunk is in the file before it is passed on, so a client that has read an answer may
// read the file at once. Exits with the program's exit status.

import { spawn } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";

const [record, program, ...args] = process.argv.slice(2);
const copy = openSync(record, "w");
const child = spawn(program, args, { stdio: ["inherit", "pipe", "inherit"] });
child.stdout.on("data", (chunk) => {
    writeSync(copy, chunk);
    process.stdout.write(chunk);
});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("close", (code, signal) => {
    closeSync(copy);
    process.exit(code ?? (signal ? 128 : 1));
});
