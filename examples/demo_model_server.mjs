// SPDX-License-Identifier: BSL-1.0
// A scripted stand-in for an OpenAI-compatible chat completions server, for the travel agent
// demo: it plays a model that plans a trip with the demo's tools, makes one call with invalid
// arguments (and repairs it when told why), meets a failing and a slow tool, then answers.
// Any other request gets one answer saying that it only plans that trip.
// Answers POST /v1/chat/completions, whole or streamed (SSE), on 127.0.0.1 only.
//
//   node examples/demo_model_server.mjs [port]     prints "listening <port>", then serves
//
// It stops by itself after 60 s without a request, or on SIGTERM / SIGINT.

import http from "node:http";

const port = Number(process.argv[2] ?? 0);

// The request the script plans; examples/travel_agent.cpp sends it when given no other.
const scriptedTrip = /Paris.*Lisbon/s;

// The model's turns, by how many assistant messages the conversation already holds.
function turn(messages) {
    const asked = messages.find((m) => m.role === "user")?.content ?? "";
    if (typeof asked === "string" && !scriptedTrip.test(asked)) {
        return { text: "I am the demo's scripted model: I only plan the scripted trip from Paris to Lisbon, so I " +
                       "cannot answer that. Set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or " +
                       "AGENTRY_BASE_URL (with AGENTRY_MODEL) to ask a real model." };
    }
    const done = messages.filter((m) => m.role === "assistant").length;
    const toolText = messages.filter((m) => m.role === "tool").map((m) => m.content ?? "").join("\n");
    switch (done) {
    case 0:
        return { calls: [
            ["get_forecast", { city: "Lisbon", days: 3 }],
            ["search_flights", { from: "cdg", to: "LIS", date: "2026-12-04", passengers: [{ name: "Ada Lovelace", age: 36 }] }],
        ] };
    case 1:
        // The error said /from must match ^[A-Z]{3}$: send it again in capitals.
        return { calls: [
            ["search_flights", { from: "CDG", to: "LIS", date: "2026-12-04", passengers: [{ name: "Ada Lovelace", age: 36 }], cabin_class: "economy" }],
            ["book_hotel", { city: "Lisbon", check_in: "2026-12-04", nights: 3, guests: { adults: 1, children: 0 } }],
        ] };
    case 2:
        return { calls: [
            ["book_hotel", { city: "Lisbon", check_in: "2026-12-05", nights: 2, guests: { adults: 1, children: 0 } }],
            ["convert_currency", { amount: 129, from: "EUR", to: "USD" }],
        ] };
    default: {
        const sunny = /sun/.test(toolText) ? "mostly sunny" : "mixed";
        return { text: `Here is your Lisbon trip: flight AF1234 from CDG on 4 December (129 EUR, about 139.32 USD), ` +
                       `and a hotel from 5 December for 2 nights, since the 4th was sold out. ` +
                       `The forecast is ${sunny}: pack a light jacket.` };
    }
    }
}

const tokens = (text) => Math.max(1, Math.ceil(text.length / 4));
let callNumber = 0;
let idle;
const resetIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => server.close(() => process.exit(0)), 60_000);
};

const server = http.createServer((req, res) => {
    resetIdle();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
        if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
            res.writeHead(404, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } }));
            return;
        }
        let request;
        try {
            request = JSON.parse(body);
        } catch {
            res.writeHead(400, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { message: "the body is not JSON", type: "invalid_request_error" } }));
            return;
        }
        const t = turn(request.messages ?? []);
        const calls = (t.calls ?? []).map(([name, args]) => ({
            id: `call_${++callNumber}`,
            type: "function",
            function: { name, arguments: JSON.stringify(args) },
        }));
        const usage = {
            prompt_tokens: tokens(body),
            completion_tokens: tokens(JSON.stringify(calls) + (t.text ?? "")),
        };
        usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
        const finish = calls.length ? "tool_calls" : "stop";
        const base = { id: `chatcmpl-demo${callNumber}`, created: 1764547200, model: request.model ?? "demo" };
        if (!request.stream) {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ ...base, object: "chat.completion", usage,
                choices: [{ index: 0, finish_reason: finish,
                            message: { role: "assistant", content: t.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) } }] }));
            return;
        }
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        const chunk = (delta, finish_reason = null, extra = {}) =>
            `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`;
        const out = [chunk({ role: "assistant", content: "" })];
        calls.forEach((c, index) => {
            const args = c.function.arguments;
            const half = Math.floor(args.length / 2);
            out.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }] }));
            out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
            out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
        });
        for (const word of (t.text ?? "").match(/\S+\s*/g) ?? []) out.push(chunk({ content: word }));
        out.push(chunk({}, finish));
        out.push(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`);
        out.push("data: [DONE]\n\n");
        let i = 0;
        const next = () => {
            if (i === out.length) return res.end();
            res.write(out[i++]);
            setTimeout(next, 15);
        };
        next();
    });
});

server.listen(port, "127.0.0.1", () => {
    console.log(`listening ${server.address().port}`);
    resetIdle();
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close(() => process.exit(0)));
