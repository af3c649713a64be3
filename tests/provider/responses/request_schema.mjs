// SPDX-License-Identifier: BSL-1.0
// Every request body agentry::openai_responses builds for the representative requests of
// samples.hpp, validated against CreateResponse of OpenAI's OpenAPI description.
//
//   node request_schema.mjs <path to agentry_responses_print_requests>
//
// The program prints one {"name","body"} object per line. Each body must
//  - validate against components.schemas.CreateResponse (ajv, JSON Schema 2020-12 as OpenAPI
//    3.1 uses it; `nullable: true` rewritten as the JSON Schema it means; discriminator and
//    x-* ignored: strict mode off);
//  - use only members the schema declares: at the top level, in each input item (by its type:
//    a message, function_call, function_call_output, reasoning), in the content of a
//    function_call_output (by its type), in each function tool, in reasoning and in a
//    json_schema text.format: the schema allows unknown members, so a misspelt one would
//    otherwise pass.
// A few wrong bodies must fail, so the check is not vacuous. The last bodies are the requests
// of an agent with a typed output; they must carry the tools and a strict json_schema format.
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
    console.error("usage: node request_schema.mjs <path to agentry_responses_print_requests>");
    process.exit(2);
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// OpenAPI 3.0's `nullable: true` as JSON Schema.
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
const validate = ajv.getSchema(`${base}#/components/schemas/CreateResponse`);

// The members a schema declares, through $ref, allOf and the object alternatives of anyOf.
function declared(schema, names = new Set()) {
    if (!isObject(schema)) return names;
    if (schema.$ref) declared(schemas[schema.$ref.split("/").pop()], names);
    for (const part of schema.allOf ?? []) declared(part, names);
    for (const part of schema.anyOf ?? []) if (part.type !== "null") declared(part, names);
    for (const name of Object.keys(schema.properties ?? {})) names.add(name);
    return names;
}

const topLevel = declared(schemas.CreateResponse);
const itemMembers = {
    message: declared(schemas.EasyInputMessage),
    function_call: declared(schemas.FunctionToolCall),
    function_call_output: declared(schemas.FunctionCallOutputItemParam),
    reasoning: declared(schemas.ReasoningItem),
};
const outputContentMembers = {
    input_text: declared(schemas.InputTextContentParam),
    input_image: declared(schemas.InputImageContentParamAutoParam),
    input_file: declared(schemas.InputFileContentParam),
};
const functionToolMembers = declared(schemas.FunctionTool);
const reasoningMembers = declared(schemas.Reasoning);
const formatMembers = declared(schemas.TextResponseFormatJsonSchema);
const textMembers = declared(schemas.ResponseTextParam);

function undeclared(body) {
    const found = [];
    const check = (object, allowed, where) => {
        if (!isObject(object)) return;
        for (const key of Object.keys(object)) if (!allowed.has(key)) found.push(`${where}/${key}`);
    };
    check(body, topLevel, "");
    check(body.reasoning, reasoningMembers, "/reasoning");
    check(body.text, textMembers, "/text");
    if (body.text?.format?.type === "json_schema") check(body.text.format, formatMembers, "/text/format");
    (body.tools ?? []).forEach((t, i) => {
        if (t.type === "function") check(t, functionToolMembers, `/tools/${i}`);
    });
    (Array.isArray(body.input) ? body.input : []).forEach((item, i) => {
        const type = item.type ?? "message";
        const allowed = itemMembers[type];
        if (!allowed) return found.push(`/input/${i}/type (${type})`);
        check(item, allowed, `/input/${i}`);
        if (type === "function_call_output" && Array.isArray(item.output))
            item.output.forEach((c, j) => {
                const members = outputContentMembers[c.type];
                if (!members) return found.push(`/input/${i}/output/${j}/type (${c.type})`);
                check(c, members, `/input/${i}/output/${j}`);
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
    if (found.length === 0) {
        console.log(`ok      ${name}`);
    } else {
        ++failed;
        console.log(`FAILED  ${name}\n        ${found.slice(0, 8).join("\n        ")}`);
    }
}

// Wrong bodies the check must refuse.
const user = { role: "user", content: "x" };
const wrong = {
    "a function_call_output without its output": { model: "m", input: [{ type: "function_call_output", call_id: "c" }] },
    "a function_call without call_id": { model: "m", input: [{ type: "function_call", name: "f", arguments: "{}" }] },
    "tool_choice not one of the words": { model: "m", input: [user], tool_choice: "sometimes" },
    "a misspelt member": { model: "m", input: [user], max_output_token: 5 },
    "a Chat Completions tool": {
        model: "m",
        input: [user],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
    },
    "a function tool without strict": {
        model: "m",
        input: [user],
        tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
    },
    "an output_text in an input message": {
        model: "m",
        input: [{ role: "assistant", content: [{ type: "output_text", text: "x" }] }],
    },
    "a json_schema format without its name": {
        model: "m",
        input: [user],
        text: { format: { type: "json_schema", schema: { type: "object" }, strict: true } },
    },
    "a misspelt member of a reasoning item": {
        model: "m",
        input: [{ type: "reasoning", id: "rs_1", summary: [], encrypted: "x" }],
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
if (typed.length === 0 || !typed.every(({ body }) => body.tools && body.text?.format?.strict === true)) {
    ++failed;
    console.log("FAILED  the typed agent's requests are missing, or lack the tools or the strict text.format");
}

if (lines.length === 0) {
    console.log("FAILED  the program printed no request");
    failed = 1;
}
console.log(`${lines.length} request bodies checked against ${path.relative(repo, openapiPath)}; ${failed} failure(s)`);
process.exit(failed === 0 ? 0 : 1);
