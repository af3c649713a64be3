// SPDX-License-Identifier: BSL-1.0
// Every request body agentry::openai builds for the representative requests of samples.hpp,
// validated against CreateChatCompletionRequest of OpenAI's OpenAPI description.
//
//   node request_schema.mjs <path to agentry_openai_print_requests>
//
// The program prints one {"name","body"} object per line. Each body must
//  - validate against components.schemas.CreateChatCompletionRequest (ajv, JSON Schema
//    2020-12 as OpenAPI 3.1 uses it; `nullable: true`, an OpenAPI 3.0 keyword the file still
//    has, is rewritten as the JSON Schema it means; other OpenAPI keywords such as
//    discriminator and x-* are ignored: strict mode off);
//  - use only members the schema declares, at the top level, in each message (by role), in
//    each tool call, in stream_options and in a json_schema response_format (Structured
//    Outputs): the schema allows unknown members, so a misspelt one would otherwise pass.
// Bodies using a member the schema marks deprecated are listed (max_tokens, for servers that
// know nothing else), not failed. A few wrong bodies must fail, so the check is not vacuous.
// The last bodies are the requests of an agent with a typed output; they must carry the tools
// and a strict json_schema response_format.
// Exit status: 0 all passed, 1 something failed, 77 skipped (ajv or the OpenAPI file missing).

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const openapiPath = path.resolve(repo, "../shared/testdata/openai-openapi/openapi.json");

let Ajv2020, addFormats;
try {
    Ajv2020 = (await import("ajv/dist/2020.js")).default;
    addFormats = (await import("ajv-formats")).default;
} catch (e) {
    if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
    console.log(`SKIP: ajv not installed (run npm ci in ${repo})`);
    process.exit(77);
}
if (!existsSync(openapiPath)) {
    console.log(`SKIP: ${openapiPath} not found (the shared test data is absent)`);
    process.exit(77);
}
if (process.argv.length !== 3) {
    console.error("usage: node request_schema.mjs <path to agentry_openai_print_requests>");
    process.exit(2);
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// OpenAPI 3.0's `nullable: true` as JSON Schema: null added to `type` (and to `enum`), or,
// without a `type`, the schema or null.
function withoutNullable(node) {
    if (Array.isArray(node)) return node.map(withoutNullable);
    if (!isObject(node)) return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) out[key] = withoutNullable(value);
    if (!("nullable" in out)) return out;
    const nullable = out.nullable === true;
    delete out.nullable;
    if (!nullable) return out;
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.type)) out.type = out.type.includes("null") ? out.type : [...out.type, "null"];
    else return { anyOf: [out, { type: "null" }] };
    return out;
}

const openapi = JSON.parse(readFileSync(openapiPath, "utf8"));
const schemas = openapi.components.schemas;
const base = "https://agentry.invalid/openai-openapi.json";
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ $id: base, components: withoutNullable(openapi.components) });
const validate = ajv.getSchema(`${base}#/components/schemas/CreateChatCompletionRequest`);

// The members a schema declares, through $ref and allOf; `deprecated` collects those so marked.
function declared(schema, deprecated = new Set(), names = new Set()) {
    if (!isObject(schema)) return names;
    if (schema.$ref) declared(schemas[schema.$ref.split("/").pop()], deprecated, names);
    for (const part of schema.allOf ?? []) declared(part, deprecated, names);
    for (const [name, member] of Object.entries(schema.properties ?? {})) {
        names.add(name);
        if (member.deprecated) deprecated.add(name);
    }
    return names;
}

const deprecatedTop = new Set();
const topLevel = declared(schemas.CreateChatCompletionRequest, deprecatedTop);
const messageMembers = {
    developer: declared(schemas.ChatCompletionRequestDeveloperMessage),
    system: declared(schemas.ChatCompletionRequestSystemMessage),
    user: declared(schemas.ChatCompletionRequestUserMessage),
    assistant: declared(schemas.ChatCompletionRequestAssistantMessage),
    tool: declared(schemas.ChatCompletionRequestToolMessage),
};
const toolCallMembers = declared(schemas.ChatCompletionMessageToolCall);
const toolCallFunctionMembers = declared(schemas.ChatCompletionMessageToolCall.properties.function);
const streamOptionMembers = declared(schemas.ChatCompletionStreamOptions.anyOf.find((s) => s.type === "object"));
const responseFormatMembers = declared(schemas.ResponseFormatJsonSchema);
const jsonSchemaMembers = declared(schemas.ResponseFormatJsonSchema.properties.json_schema);

function undeclared(body) {
    const found = [];
    const check = (object, allowed, where) => {
        if (!isObject(object)) return;
        for (const key of Object.keys(object)) if (!allowed.has(key)) found.push(`${where}/${key}`);
    };
    check(body, topLevel, "");
    check(body.stream_options, streamOptionMembers, "/stream_options");
    if (body.response_format?.type === "json_schema") {
        check(body.response_format, responseFormatMembers, "/response_format");
        check(body.response_format.json_schema, jsonSchemaMembers, "/response_format/json_schema");
    }
    (body.messages ?? []).forEach((m, i) => {
        const allowed = messageMembers[m.role];
        if (!allowed) return found.push(`/messages/${i}/role (${m.role})`);
        check(m, allowed, `/messages/${i}`);
        (m.tool_calls ?? []).forEach((c, j) => {
            check(c, toolCallMembers, `/messages/${i}/tool_calls/${j}`);
            check(c.function, toolCallFunctionMembers, `/messages/${i}/tool_calls/${j}/function`);
        });
    });
    return found;
}

function problems(body) {
    const out = [];
    if (!validate(body)) for (const e of validate.errors) out.push(`${e.instancePath || "/"} ${e.message}`);
    for (const p of undeclared(body)) out.push(`${p}: not a member of the schema`);
    return out;
}

const lines = execFileSync(process.argv[2], { encoding: "utf8" }).split("\n").filter((l) => l.length > 0);
let failed = 0;
for (const line of lines) {
    const { name, body } = JSON.parse(line);
    const found = problems(body);
    const old = Object.keys(body).filter((k) => deprecatedTop.has(k));
    if (found.length === 0) {
        console.log(`ok      ${name}${old.length ? ` (deprecated members: ${old.join(", ")})` : ""}`);
    } else {
        ++failed;
        console.log(`FAILED  ${name}\n        ${found.slice(0, 8).join("\n        ")}`);
    }
}

// Wrong bodies the check must refuse.
const wrong = {
    "a tool message without tool_call_id": { model: "m", messages: [{ role: "tool", content: "5" }] },
    "tool_choice not one of the words": { model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "sometimes" },
    "a tool call without its type": {
        model: "m",
        messages: [{ role: "assistant", content: null, tool_calls: [{ id: "c", function: { name: "f", arguments: "{}" } }] }],
    },
    "a misspelt member": { model: "m", messages: [{ role: "user", content: "x" }], max_completion_token: 5 },
    "a message member of another role": { model: "m", messages: [{ role: "user", content: "x", tool_call_id: "c" }] },
    "no messages": { model: "m", messages: [] },
    "a json_schema response_format without its name": {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { schema: { type: "object" }, strict: true } },
    },
    "a misspelt member of json_schema": {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "object" }, strickt: true } },
    },
};
for (const [name, body] of Object.entries(wrong)) {
    if (problems(body).length === 0) {
        ++failed;
        console.log(`FAILED  the wrong body "${name}" passed`);
    } else {
        console.log(`ok      refused: ${name}`);
    }
}

// The typed agent's requests carry the tools and the strict structured output together.
const typed = lines.map((l) => JSON.parse(l)).filter(({ name }) => name.startsWith("an agent with a typed output"));
if (typed.length === 0 || !typed.every(({ body }) => body.tools && body.response_format?.json_schema?.strict === true)) {
    ++failed;
    console.log("FAILED  the typed agent's requests are missing, or lack the tools or the strict response_format");
}

if (lines.length === 0) {
    console.log("FAILED  the program printed no request");
    failed = 1;
}
console.log(`${lines.length} request bodies checked against ${path.relative(repo, openapiPath)}; ${failed} failure(s)`);
process.exit(failed === 0 ? 0 : 1);
