// SPDX-License-Identifier: BSL-1.0
// Shared by the MCP node tests: prerequisites (skip with exit code 77 and a reason when one is
// missing), validation of server messages against the MCP schema, and the client scenario run
// over every transport.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const testdata = path.resolve(repo, "../shared/testdata");
export const here = path.dirname(fileURLToPath(import.meta.url));

// The protocol versions the server negotiates, oldest first.
export const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
// The stateless revision (no initialize; the version in each request's _meta).
export const STATELESS = "2026-07-28";

export function skip(reason) {
    console.log(`SKIP: ${reason}`);
    process.exit(77);
}

// Imports `modules` (specifiers) or skips; checks the MCP schemas are present.
export async function prerequisites(...modules) {
    const loaded = [];
    for (const specifier of ["ajv/dist/2020.js", "ajv", "ajv-formats", ...modules]) {
        try {
            loaded.push(await import(specifier));
        } catch (e) {
            if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
            skip(`${specifier} is not installed (run npm ci in ${repo})`);
        }
    }
    for (const version of [...VERSIONS, STATELESS])
        if (!existsSync(path.join(testdata, "mcp-schema", version, "schema.json")))
            skip(`${testdata}/mcp-schema/${version}/schema.json is missing`);
    const [ajv2020, ajv, formats, ...rest] = loaded;
    validators.Ajv2020 = ajv2020.default;
    validators.Ajv = ajv.default;
    validators.addFormats = formats.default;
    return rest;
}

const validators = {};
const compiled = new Map();

// Validates `value` against the definition `name` of the MCP schema of `version`; returns the
// ajv errors as text, or "" when valid.
export function schemaErrors(version, name, value) {
    if (!compiled.has(version)) {
        const schema = JSON.parse(readFileSync(path.join(testdata, "mcp-schema", version, "schema.json"), "utf8"));
        const modern = schema.$defs !== undefined;
        const Ajv = modern ? validators.Ajv2020 : validators.Ajv;
        const ajv = validators.addFormats(new Ajv({ strict: false, allErrors: true }));
        ajv.addSchema(schema, "mcp");
        compiled.set(version, { ajv, defs: modern ? "$defs" : "definitions" });
    }
    const { ajv, defs } = compiled.get(version);
    const validate = ajv.getSchema(`mcp#/${defs}/${name}`);
    assert.ok(validate, `no definition ${name} in the ${version} schema`);
    return validate(value) ? "" : ajv.errorsText(validate.errors);
}

const RESULT_TYPES = {
    initialize: "InitializeResult",
    ping: "EmptyResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "logging/setLevel": "EmptyResult",
    "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "completion/complete": "CompleteResult",
    "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult",
    "server/discover": "DiscoverResult",
};

// The problems of one message the server sent (parsed JSON), answering a request of `method`,
// against the schema of `version`: as a JSON-RPC message, and its result as that method's
// result type. "" when valid.
export function messageProblems(version, message, method) {
    const text = JSON.stringify(message);
    const problems = [];
    const envelope = schemaErrors(version, "JSONRPCMessage", message);
    if (envelope) problems.push(`${text}\n  not a JSONRPCMessage of ${version}: ${envelope}`);
    if (message.method !== undefined) {
        const errors = schemaErrors(version, "ServerNotification", message);
        if (errors) problems.push(`${text}\n  not a ServerNotification of ${version}: ${errors}`);
    }
    if (message.result !== undefined) {
        const type = RESULT_TYPES[method];
        if (!type) problems.push(`${text}\n  a result for a request of no known method (${method})`);
        const errors = type ? schemaErrors(version, type, message.result) : "";
        if (errors) problems.push(`${text}\n  not a ${type} of ${version}: ${errors}`);
    }
    return problems.join("\n");
}

// Checks each message the server sent against the schema of `version` (see messageProblems);
// `methods` maps the ids of the requests sent to their methods. Returns the number checked.
export function validateServerMessages(version, messages, methods) {
    const problems = messages
        .map((m) => messageProblems(version, m, methods.get(JSON.stringify(m.id))))
        .filter((p) => p !== "");
    assert.deepEqual(problems, [], problems.join("\n"));
    return messages.length;
}

// A transport that records the method of every request the client sends, by id.
export function recordingRequests(transport, methods) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        if (message.method !== undefined && message.id !== undefined) methods.set(JSON.stringify(message.id), message.method);
        return send(message, options);
    };
    return transport;
}

export const WEATHER_INVALID =
    'get_weather: invalid arguments: /unit: "kelvin" is not one of ["celsius","fahrenheit"]. ' +
    "Fix the arguments and call get_weather again.";

// What every transport must do with examples/mcp_server, through the SDK client, in a session
// of `version`: only that version's features are sent (annotations from 2025-03-26; titles,
// outputSchema and structuredContent from 2025-06-18).
export async function scenario(client, { McpError, ErrorCode, ListResourcesResultSchema }, version = "2025-11-25") {
    const annotated = version >= "2025-03-26";
    const structured = version >= "2025-06-18";
    // Icons from 2025-11-25 (an SDK too old to know them drops them).
    const { icons: serverIcons, ...serverVersion } = client.getServerVersion();
    assert.deepEqual(serverVersion, { name: "weather", version: "1.0.0" });
    if (version >= "2025-11-25" && serverIcons !== undefined)
        assert.deepEqual(serverIcons, [{ src: "https://example.com/weather.png", mimeType: "image/png", sizes: ["48x48"] }]);
    else assert.equal(serverIcons, undefined);
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false }, logging: {} });

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["get_weather", "add"]);
    const [weather, add] = tools;
    assert.equal(weather.title, structured ? "Weather" : undefined);
    // 2025-03-26 has no tool title but annotations.title.
    const weatherHints = structured ? { readOnlyHint: true } : { title: "Weather", readOnlyHint: true };
    assert.deepEqual(weather.annotations, annotated ? weatherHints : undefined);
    assert.equal(weather.description, "Current weather for a city. Not for climate averages.");
    assert.deepEqual(weather.inputSchema.required, ["city"]);
    assert.deepEqual(Object.keys(weather.inputSchema.properties), ["city", "unit"]);
    assert.deepEqual(weather.inputSchema.properties.unit.enum, ["celsius", "fahrenheit"]);
    if (structured) assert.deepEqual(weather.outputSchema.required, ["temperature", "condition"]);
    else assert.equal(weather.outputSchema, undefined);
    assert.deepEqual(add.annotations, annotated ? { readOnlyHint: true, openWorldHint: false } : undefined);
    assert.equal(add.outputSchema, undefined);

    // Valid arguments. The SDK checks structuredContent against outputSchema itself.
    let r = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
    assert.equal(r.isError, false);
    assert.deepEqual(r.structuredContent, structured ? { temperature: 18.5, condition: "rain" } : undefined);
    assert.deepEqual(r.content, [{ type: "text", text: '{"temperature":18.5,"condition":"rain"}' }]);
    r = await client.callTool({ name: "get_weather", arguments: { city: "Oslo", unit: "fahrenheit" } });
    assert.deepEqual(r.content, [{ type: "text", text: '{"temperature":65.3,"condition":"sun"}' }]);
    assert.deepEqual(r.structuredContent, structured ? { temperature: 65.3, condition: "sun" } : undefined);
    r = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    assert.deepEqual(r, { content: [{ type: "text", text: "42" }], isError: false });

    // Invalid arguments: a tool result with isError and the precise validation error.
    r = await client.callTool({ name: "get_weather", arguments: { city: "Paris", unit: "kelvin" } });
    assert.deepEqual(r, { content: [{ type: "text", text: WEATHER_INVALID }], isError: true });
    r = await client.callTool({ name: "add", arguments: { a: "2", b: 1.5, c: 0 } });
    assert.equal(r.isError, true);
    assert.equal(
        r.content[0].text,
        'add: invalid arguments: /a: expected an integer, got a string "2"; /b: expected an integer, got 1.5; ' +
            '/c: unknown property; did you mean "a"? Fix the arguments and call add again.',
    );
    r = await client.callTool({ name: "add", arguments: { a: 3000000000, b: 1 } });
    assert.match(r.content[0].text, /^add: invalid arguments: \/a: must be at most 2147483647/);
    // No arguments at all mean {}.
    r = await client.callTool({ name: "get_weather" });
    assert.equal(r.isError, true);
    assert.equal(
        r.content[0].text,
        "get_weather: invalid arguments: /city: missing required property. Fix the arguments and call get_weather again.",
    );

    // Unknown tool: a JSON-RPC error -32602.
    await assert.rejects(client.callTool({ name: "get_wether", arguments: { city: "Paris" } }), (e) => {
        assert.ok(e instanceof McpError);
        assert.equal(e.code, ErrorCode.InvalidParams);
        assert.match(e.message, /unknown tool "get_wether" \(did you mean "get_weather"\?\)\. Available tools: get_weather, add\./);
        return true;
    });

    // Unknown method: -32601.
    await assert.rejects(client.request({ method: "resources/list" }, ListResourcesResultSchema), (e) => {
        assert.equal(e.code, ErrorCode.MethodNotFound);
        return true;
    });

    assert.deepEqual(await client.ping(), {});
}

// Starts `program --http 0` and waits for the URL it logs. The server stops with stop().
export async function startHttpServer(program) {
    const { spawn } = await import("node:child_process");
    const child = spawn(program, ["--http", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    const url = await new Promise((resolve, reject) => {
        child.stderr.on("data", (chunk) => {
            stderr += chunk;
            const found = /listening on (http:\/\/\S+)/.exec(stderr);
            if (found) resolve(found[1]);
        });
        exited.then(({ code }) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
    });
    process.on("exit", () => child.kill("SIGKILL"));
    return {
        url,
        // Stops the server with SIGTERM; checks it exits with 0 and logs only agentry lines.
        async stop() {
            child.kill("SIGTERM");
            const { code } = await exited;
            assert.equal(code, 0, `the server's exit status, stderr:\n${stderr}`);
            assert.equal(stdout, "", "the HTTP server writes nothing to standard output");
            const logs = stderr.split("\n").filter((line) => line !== "");
            assert.deepEqual(logs.filter((line) => !line.startsWith("agentry: mcp: ")), [], "stderr holds only logs");
        },
    };
}

// The JSON messages of an SSE body (its `data:` lines).
export function sseMessages(text) {
    return text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice("data: ".length)));
}

// A fetch that records the JSON body of every response, made with `inner`, and the messages of
// every SSE response (read on the side; `streams` holds a promise per stream, settled at its end).
export function recordingFetch(bodies, inner = fetch, streams = []) {
    return async (url, init) => {
        const response = await inner(url, init);
        const type = response.headers.get("content-type") ?? "";
        if (type.includes("application/json")) {
            const text = await response.clone().text();
            if (text !== "") bodies.push(JSON.parse(text));
        } else if (type.includes("text/event-stream")) {
            streams.push(
                response
                    .clone()
                    .text()
                    .then((text) => bodies.push(...sseMessages(text)))
                    .catch(() => {}),
            );
        }
        return response;
    };
}
