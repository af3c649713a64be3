// SPDX-License-Identifier: BSL-1.0
// Conformance check of every schema agentry generates.
//
//   node validate_schemas.mjs <path to agentry_dump_schemas>
//
// The dump prints one {"name","dialect","kind":"schema"|"definitions","schema"} object per line.
// Every JSON Schema dialect's output must pass ajv's 2020-12 meta-schema and compile in strict
// mode; Gemini's output is checked against the OpenAPI-subset rules of the Gemini API; the strict
// dialects (OpenAI, Anthropic) against their providers' extra rules; tool payloads against the
// shape each provider expects, and MCP tools against the MCP schema's `Tool` definition.
// Exit status: 0 all passed, 1 something failed, 77 skipped (ajv not installed).

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const testdata = path.resolve(repo, "../shared/testdata");

let Ajv, Ajv2020, addFormats;
try {
    Ajv = (await import("ajv")).default;
    Ajv2020 = (await import("ajv/dist/2020.js")).default;
    addFormats = (await import("ajv-formats")).default;
} catch (e) {
    if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
    console.log(`SKIP: ajv not installed (run npm ci in ${repo})`);
    process.exit(77);
}

if (process.argv.length !== 3) {
    console.error("usage: node validate_schemas.mjs <path to agentry_dump_schemas>");
    process.exit(2);
}

// Strict mode is fully on (unknown keywords, unknown formats, `required` names without a
// property, type-less applicators... are errors). The one relaxation: allowUnionTypes, because
// nullable values are written as "type":["T","null"], which is plain 2020-12.
const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));

const DIALECTS = new Set(["standard", "openai", "openai_strict", "anthropic", "anthropic_strict", "gemini", "mcp"]);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const typesOf = (node) => (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]);

// ---- JSON Schema walk ---------------------------------------------------------------------

// Keywords whose value is a map of schemas, a list of schemas, or one schema.
const MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const LIST_KEYWORDS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const ONE_KEYWORDS = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);

// Calls visit(node, pointer) for every schema object in `schema`.
function walk(schema, visit, pointer = "") {
    if (!isObject(schema)) return;
    visit(schema, pointer || "/");
    for (const [key, value] of Object.entries(schema)) {
        const at = `${pointer}/${key}`;
        if (MAP_KEYWORDS.has(key) && isObject(value))
            for (const [name, sub] of Object.entries(value)) walk(sub, visit, `${at}/${name}`);
        else if (LIST_KEYWORDS.has(key) && Array.isArray(value)) value.forEach((sub, i) => walk(sub, visit, `${at}/${i}`));
        else if (ONE_KEYWORDS.has(key)) walk(value, visit, at);
    }
}

// Runs a per-node rule over every node; a rule returns a list of messages.
function walkRule(schema, rule) {
    const errors = [];
    walk(schema, (node, at) => errors.push(...rule(node).map((m) => `${at}: ${m}`)));
    return errors;
}

// ---- meta-schema --------------------------------------------------------------------------

// Keywords ajv accepts although 2020-12 does not define them (OpenAPI `nullable`, draft-07
// `definitions`): strict mode cannot catch them, so they are looked for here.
const NOT_2020_12 = ["nullable", "definitions"];

function metaErrors(schema) {
    const errors = walkRule(schema, (node) =>
        NOT_2020_12.filter((k) => k in node).map((k) => `"${k}" is not a 2020-12 keyword`));
    if (!ajv.validateSchema(schema))
        return [...errors, ...ajv.errors.map((e) => `meta-schema: ${e.instancePath || "/"} ${e.message}`)];
    try {
        ajv.compile(schema);
    } catch (e) {
        errors.push(`ajv.compile: ${e.message}`);
    }
    return errors;
}

// ---- provider rules -----------------------------------------------------------------------

// Gemini `Schema` (OpenAPI 3.0 subset): the fields the API accepts. Everything else, including
// additionalProperties, $ref, $defs, const, oneOf, allOf, exclusive bounds, multipleOf and
// uniqueItems, is rejected.
const GEMINI_KEYS = new Set(["type", "format", "description", "nullable", "enum", "items", "minItems", "maxItems",
    "properties", "required", "minLength", "maxLength", "pattern", "minimum", "maximum", "anyOf", "propertyOrdering",
    "title", "default", "example", "minProperties", "maxProperties"]);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);

function geminiNode(node) {
    const errors = [];
    for (const key of Object.keys(node)) if (!GEMINI_KEYS.has(key)) errors.push(`keyword "${key}" not allowed`);
    if (Array.isArray(node.type)) errors.push("type must be a single name, not an array");
    else if (node.type === undefined) {
        if (node.anyOf === undefined) errors.push("type is missing (only an anyOf node may omit it)");
    } else if (!GEMINI_TYPES.has(node.type)) errors.push(`type "${node.type}" is not one of ${[...GEMINI_TYPES]}`);
    if (node.enum !== undefined && !(Array.isArray(node.enum) && node.enum.every((v) => typeof v === "string")))
        errors.push("enum values must be strings");
    if (node.format !== undefined && (node.type !== "STRING" || !["date-time", "enum"].includes(node.format)))
        errors.push(`format "${node.format}" (only "date-time" or "enum", on STRING)`);
    if (node.items !== undefined && !isObject(node.items)) errors.push("items must be one schema");
    for (const name of node.required ?? [])
        if (!isObject(node.properties) || !(name in node.properties)) errors.push(`required "${name}" is not a property`);
    return errors;
}

// OpenAI Structured Outputs (strict:true): the supported keywords and formats, closed objects
// with every property required.
const OPENAI_STRICT_KEYS = new Set(["type", "description", "enum", "properties", "required", "additionalProperties",
    "items", "anyOf", "$ref", "$defs", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "minItems", "maxItems"]);
const OPENAI_STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6",
    "uuid"]);

function openaiStrictNode(node) {
    const errors = [];
    for (const key of Object.keys(node)) if (!OPENAI_STRICT_KEYS.has(key)) errors.push(`keyword "${key}" not allowed`);
    if (node.format !== undefined && !OPENAI_STRICT_FORMATS.has(node.format))
        errors.push(`format "${node.format}" not supported`);
    if (typesOf(node).includes("object") || node.properties !== undefined) {
        if (node.additionalProperties !== false) errors.push("object without additionalProperties:false");
        const names = Object.keys(node.properties ?? {}).sort();
        const required = [...(node.required ?? [])].sort();
        if (JSON.stringify(names) !== JSON.stringify(required))
            errors.push(`required ${JSON.stringify(required)} must list exactly the properties ${JSON.stringify(names)}`);
    }
    return errors;
}

// Anthropic strict tools: no numeric or length bounds, minItems 0 or 1 only, no maxItems, the
// supported formats, closed objects; $ref is allowed but recursive schemas are not.
const ANTHROPIC_STRICT_FORBIDDEN = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "maxItems"];
const ANTHROPIC_STRICT_FORMATS = new Set([...OPENAI_STRICT_FORMATS, "uri"]);

function anthropicStrictNode(node) {
    const errors = ANTHROPIC_STRICT_FORBIDDEN.filter((k) => k in node).map((k) => `keyword "${k}" not allowed`);
    if (node.minItems !== undefined && node.minItems !== 0 && node.minItems !== 1)
        errors.push(`minItems ${node.minItems} (only 0 or 1)`);
    if (node.format !== undefined && !ANTHROPIC_STRICT_FORMATS.has(node.format))
        errors.push(`format "${node.format}" not supported`);
    if ((typesOf(node).includes("object") || node.properties !== undefined) && node.additionalProperties !== false)
        errors.push("object without additionalProperties:false");
    return errors;
}

// Whether the local $refs of `root` form a cycle ("#" or "#/$defs/<name>" targets).
function isRecursive(root) {
    const target = (ref) => (ref === "#" ? root : root.$defs?.[ref.replace(/^#\/\$defs\//, "")]);
    const state = new Map(); // schema -> "open" while on the current path, "done" after
    const visit = (schema) => {
        if (state.has(schema)) return state.get(schema) === "open";
        state.set(schema, "open");
        const refs = [];
        walk(schema, (node, at) => {
            // The root's own $defs are visited through the references to them.
            if (typeof node.$ref === "string" && !(schema === root && at.startsWith("/$defs/"))) refs.push(node.$ref);
        });
        const cycle = refs.some((ref) => isObject(target(ref)) && visit(target(ref)));
        state.set(schema, "done");
        return cycle;
    };
    return visit(root);
}

// All checks of one schema of dialect `dialect`.
function schemaErrors(dialect, schema) {
    if (!isObject(schema)) return ["schema is not a JSON object"];
    if (dialect === "gemini") return walkRule(schema, geminiNode);
    const errors = metaErrors(schema);
    if (dialect === "openai_strict") {
        if (schema.type !== "object") errors.push(`/: the root must be "type":"object"`);
        errors.push(...walkRule(schema, openaiStrictNode));
    }
    if (dialect === "anthropic_strict") {
        errors.push(...walkRule(schema, anthropicStrictNode));
        if (isRecursive(schema)) errors.push("/: recursive schema ($ref cycle)");
    }
    return errors;
}

// ---- tool payloads (kind "definitions") ---------------------------------------------------

// Tool names the providers accept (the strictest documented form).
const NAME_RULES = {
    openai: /^[A-Za-z0-9_-]{1,64}$/,
    openai_strict: /^[A-Za-z0-9_-]{1,64}$/,
    anthropic: /^[A-Za-z0-9_-]{1,64}$/,
    anthropic_strict: /^[A-Za-z0-9_-]{1,64}$/,
    gemini: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
};

// The object must have exactly the keys `required` and some of `optional`.
function keyErrors(object, required, optional = []) {
    if (!isObject(object)) return ["not a JSON object"];
    const errors = required.filter((k) => !(k in object)).map((k) => `missing "${k}"`);
    for (const k of Object.keys(object))
        if (!required.includes(k) && !optional.includes(k)) errors.push(`unexpected "${k}"`);
    return errors;
}

const toolName = (tool) => tool?.name ?? tool?.function?.name ?? "?";

// Checks one tool of the payload: its keys, name, description, and each schema in it.
function toolErrors(dialect, tool) {
    const strict = dialect.endsWith("_strict");
    let errors, fn = tool, schemas = {};
    switch (dialect) {
        case "openai":
        case "openai_strict":
            errors = keyErrors(tool, ["type", "function"]);
            if (tool.type !== "function") errors.push(`type must be "function"`);
            fn = tool.function ?? {};
            // Without strict mode "strict" is left out: false is its default.
            errors.push(...keyErrors(fn, ["name", "description", "parameters", ...(strict ? ["strict"] : [])])
                               .map((e) => `function: ${e}`));
            if (strict && fn.strict !== true) errors.push("function.strict must be true");
            schemas = { "function.parameters": fn.parameters };
            break;
        case "anthropic":
        case "anthropic_strict":
            errors = keyErrors(tool, ["name", "description", "input_schema", ...(strict ? ["strict"] : [])]);
            if (strict && tool.strict !== true) errors.push("strict must be true");
            schemas = { input_schema: tool.input_schema };
            break;
        case "mcp":
            errors = keyErrors(tool, ["name", "description", "inputSchema"], ["outputSchema"]);
            schemas = { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema };
            break;
        case "gemini":
            errors = keyErrors(tool, ["name", "description"], ["parameters"]);
            schemas = { parameters: tool.parameters };
            break;
        default:
            errors = keyErrors(tool, ["name", "description", "parameters"]);
            schemas = { parameters: tool.parameters };
    }
    if (typeof fn.name !== "string" || !(NAME_RULES[dialect] ?? /./).test(fn.name))
        errors.push(`bad name ${JSON.stringify(fn.name)}`);
    if (typeof fn.description !== "string") errors.push("description must be a string");
    for (const [key, schema] of Object.entries(schemas)) {
        if (schema === undefined) continue;
        const objectType = dialect === "gemini" ? "OBJECT" : "object";
        if (schema?.type !== objectType) errors.push(`${key}: the root must be "type":"${objectType}"`);
        errors.push(...schemaErrors(dialect, schema).map((e) => `${key}${e.startsWith("/") ? "" : ": "}${e}`));
    }
    return errors;
}

function definitionsErrors(dialect, payload) {
    let tools = payload;
    if (dialect === "gemini") {
        // [{"functionDeclarations":[...]}]
        if (!Array.isArray(payload) || payload.length !== 1) return ["must be [{functionDeclarations:[...]}]"];
        const errors = keyErrors(payload[0], ["functionDeclarations"]);
        if (errors.length) return errors;
        tools = payload[0].functionDeclarations;
    }
    if (!Array.isArray(tools)) return ["the tools must be a JSON array"];
    return tools.flatMap((tool, i) => toolErrors(dialect, tool).map((e) => `[${i}] ${toolName(tool)}: ${e}`));
}

// ---- MCP `Tool` definition ----------------------------------------------------------------

// A validator of the `Tool` definition of one MCP schema version, or null when the file is absent.
function mcpToolValidator(version) {
    const file = path.join(testdata, "mcp-schema", version, "schema.json");
    if (!existsSync(file)) {
        console.log(`SKIP mcp-schema: ${file} not found`);
        return null;
    }
    const schema = JSON.parse(readFileSync(file, "utf8"));
    // 2025-06-18 is draft-07 (`definitions`), 2025-11-25 is 2020-12 (`$defs`). This is a third-party
    // schema, so strict mode (which checks how a schema is written) is off for it.
    const draft07 = String(schema.$schema).includes("draft-07");
    const validator = addFormats(new (draft07 ? Ajv : Ajv2020)({ strict: false, allErrors: true }));
    const id = `mcp-${version}.json`;
    validator.addSchema(schema, id);
    return validator.getSchema(`${id}#/${draft07 ? "definitions" : "$defs"}/Tool`);
}

// ---- main ---------------------------------------------------------------------------------

let checked = 0, failed = 0;
function report(label, errors) {
    ++checked;
    if (errors.length === 0) return console.log(`ok   ${label}`);
    ++failed;
    console.log(`FAIL ${label}`);
    for (const e of errors) console.log(`       ${e}`);
}

let output;
try {
    output = execFileSync(process.argv[2], { encoding: "utf8", maxBuffer: 64 << 20 });
} catch (e) {
    console.log(`FAIL: cannot run ${process.argv[2]}: ${e.message}`);
    process.exit(1);
}

const mcpTools = [];
for (const [index, line] of output.split("\n").entries()) {
    if (line.trim() === "") continue;
    let entry;
    try {
        entry = JSON.parse(line);
    } catch (e) {
        report(`line ${index + 1}`, [`not JSON: ${e.message}`]);
        continue;
    }
    const { name, dialect, kind, schema } = entry;
    const label = `${dialect} ${kind} ${name}`;
    if (!DIALECTS.has(dialect)) report(label, [`unknown dialect "${dialect}"`]);
    else if (kind === "schema") report(label, schemaErrors(dialect, schema));
    else if (kind === "definitions") {
        report(label, definitionsErrors(dialect, schema));
        if (dialect === "mcp" && Array.isArray(schema)) mcpTools.push(...schema);
    } else report(label, [`unknown kind "${kind}"`]);
}

if (checked === 0) report("dump output", ["the dump printed nothing"]);

for (const version of ["2025-06-18", "2025-11-25"]) {
    const validate = mcpToolValidator(version);
    if (!validate) continue;
    for (const tool of mcpTools) {
        const ok = validate(tool);
        report(`mcp Tool ${toolName(tool)} against MCP ${version} schema`,
            ok ? [] : validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`));
    }
}

console.log(`${checked} schemas checked, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
