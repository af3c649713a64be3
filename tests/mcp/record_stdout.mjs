// SPDX-License-Identifier: BSL-1.0
// node record_stdout.mjs <record file> <program> [arguments...]
//
// Runs the program with this process's standard input and error, copies its standard output
// to ours and to <record file>: the exact bytes an MCP client reads from a stdio server.
// Exits with the program's exit status.

import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

const [record, program, ...args] = process.argv.slice(2);
const copy = createWriteStream(record);
const child = spawn(program, args, { stdio: ["inherit", "pipe", "inherit"] });
child.stdout.on("data", (chunk) => {
    copy.write(chunk);
    process.stdout.write(chunk);
});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("close", (code, signal) => {
    copy.end(() => process.exit(code ?? (signal ? 128 : 1)));
});
