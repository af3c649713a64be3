// SPDX-License-Identifier: BSL-1.0
// Opens N MCP sessions on URL (initialize, then notifications/initialized), 8 at a time, and
// leaves them open. Prints the number opened; exits 1 if any failed.
//
//   node open_sessions.mjs URL N
const [url, count] = [process.argv[2], Number(process.argv[3])];
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = JSON.stringify({
    jsonrpc: "2.0", id: 0, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});
const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

async function open() {
    const r = await fetch(url, { method: "POST", headers, body: initialize });
    await r.text();
    const id = r.headers.get("mcp-session-id");
    if (r.status !== 200 || !id) throw new Error(`initialize: HTTP ${r.status}`);
    const n = await fetch(url, {
        method: "POST", body: initialized,
        headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    });
    await n.text();
    if (n.status !== 202) throw new Error(`notifications/initialized: HTTP ${n.status}`);
}

let next = 0, opened = 0;
async function worker() {
    while (next < count) {
        next++;
        await open();
        opened++;
    }
}
try {
    await Promise.all(Array.from({ length: 8 }, worker));
} catch (e) {
    console.error(`after ${opened} sessions: ${e.message}`);
    process.exit(1);
}
console.log(opened);
