// SPDX-License-Identifier: BSL-1.0
// The benchmark's TypeScript SDK server: the same `quote` tool as server.cpp, served by the
// official SDK's McpServer and StreamableHTTPServerTransport on createMcpExpressApp (which
// validates the Host header, as agentry does), on 127.0.0.1.
//
//   node sdk_server.mjs PORT stateless|session json|sse
//
// stateless: a server and a transport per request (sessionIdGenerator undefined), as the SDK's
// simpleStatelessStreamableHttp example does. session: a server and a transport per session,
// kept in a map, as simpleStreamableHttp does. json: enableJsonResponse (application/json
// answers); sse: the SDK's default, an SSE stream per request.
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

const [port, mode, answers] = process.argv.slice(2);
if (!port || !["stateless", "session"].includes(mode) || !["json", "sse"].includes(answers)) {
    console.error("usage: node sdk_server.mjs PORT stateless|session json|sse");
    process.exit(2);
}
const enableJsonResponse = answers === "json";

function newServer() {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    const order = {
        customer: z.string(),
        sku: z.string(),
        quantity: z.number().int(),
        unit_price: z.number(),
        express: z.boolean(),
    };
    const quote = {
        customer: z.string(),
        sku: z.string(),
        quantity: z.number().int(),
        total: z.number(),
        express: z.boolean(),
    };
    server.registerTool("quote", { description: "Price an order", inputSchema: order, outputSchema: quote },
        async (o, extra) => {
            const token = extra._meta?.progressToken;
            if (token !== undefined)
                await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 1 } });
            const out = { customer: o.customer, sku: o.sku, quantity: o.quantity,
                          total: o.quantity * o.unit_price + (o.express ? 10 : 0), express: o.express };
            return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
        });
    return server;
}

const app = createMcpExpressApp();
const transports = new Map();

function fail(res, status, message) {
    if (!res.headersSent) res.status(status).json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

app.post("/mcp", async (req, res) => {
    try {
        if (mode === "stateless") {
            const server = newServer();
            const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
            res.on("close", () => {
                transport.close();
                server.close();
            });
            await server.connect(transport);
            await transport.handleRequest(req, res, req.body);
            return;
        }
        const id = req.headers["mcp-session-id"];
        let transport = id ? transports.get(id) : undefined;
        if (!transport) {
            if (id || !isInitializeRequest(req.body)) return fail(res, id ? 404 : 400, id ? "Session not found" : "No session");
            transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                enableJsonResponse,
                onsessioninitialized: (sid) => transports.set(sid, transport),
            });
            transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
            await newServer().connect(transport);
        }
        await transport.handleRequest(req, res, req.body);
    } catch (e) {
        console.error(e);
        fail(res, 500, "Internal error");
    }
});

app.listen(Number(port), "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${port}/mcp (${mode}, ${answers})`));
