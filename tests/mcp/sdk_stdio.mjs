// SPDX-License-Identifier: BSL-1.0
// The official MCP TypeScript SDK client against examples/mcp_server over stdio.
//
//   node sdk_stdio.mjs <path to mcp_server>
//
// Runs the common scenario (common.mjs), then checks that everything the server wrote to
// standard output is MCP messages valid for the negotiated version, and everything it wrote to
// standard error is agentry's log lines. Exit status: 0 passed, 1 failed, 77 skipped.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { here, prerequisites, recordingRequests, scenario, validateServerMessages } from "./common.mjs";

const [clientModule, stdioModule, types] = await prerequisites(
    "@modelcontextprotocol/sdk/client/index.js",
    "@modelcontextprotocol/sdk/client/stdio.js",
    "@modelcontextprotocol/sdk/types.js",
);
if (process.argv.length !== 3) {
    console.error("usage: node sdk_stdio.mjs <path to mcp_server>");
    process.exit(2);
}

const dir = mkdtempSync(path.join(os.tmpdir(), "agentry-mcp-"));
const record = path.join(dir, "stdout.jsonl");
try {
    const transport = new stdioModule.StdioClientTransport({
        command: process.execPath,
        args: [path.join(here, "record_stdout.mjs"), record, process.argv[2]],
        stderr: "pipe",
    });
    let stderr = "";
    transport.stderr.on("data", (chunk) => (stderr += chunk));
    const methods = new Map();
    const client = new clientModule.Client({ name: "agentry-test", version: "1.0.0" });
    await client.connect(recordingRequests(transport, methods));

    await scenario(client, types);
    await client.close();

    const lines = readFileSync(record, "utf8").split("\n");
    assert.equal(lines.pop(), "", "the last message ends with a newline");
    const messages = lines.map((line) => JSON.parse(line));
    const init = messages.find((m) => m.result?.protocolVersion !== undefined);
    assert.equal(init.result.protocolVersion, "2025-11-25");
    const checked = validateServerMessages(init.result.protocolVersion, messages, methods);
    assert.equal(checked, methods.size, "one answer per request");

    const logs = stderr.split("\n").filter((line) => line !== "");
    assert.deepEqual(logs.filter((line) => !line.startsWith("agentry: mcp: ")), [], "standard error holds only logs");
    console.log(`stdio: ${checked} server messages valid against MCP ${init.result.protocolVersion}`);
} finally {
    rmSync(dir, { recursive: true, force: true });
}
