// SPDX-License-Identifier: BSL-1.0
// What the request-schema checks of the OpenAI providers share (openai/request_schema.mjs,
// responses/request_schema.mjs): OpenAI's OpenAPI description loaded into ajv, the members a
// schema declares, and the run over the bodies a printer program writes (one JSON line each:
// {"name", "body"}), the wrong bodies that must fail and the summary.
//
// Skips (exit 77) with a printed reason when ajv or the OpenAPI file is missing.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const openapiPath = path.resolve(repo, "../shared/testdata/openai-openapi/openapi.json");

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

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

// The description, and a validator of components.schemas.<request> (ajv, JSON Schema 2020-12
// as OpenAPI 3.1 uses it; discriminator and x-* ignored: strict mode off); `printer` names the
// program the usage line asks for.
export async function openapi(request, printer) {
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
        console.error(`usage: node request_schema.mjs <path to ${printer}>`);
        process.exit(2);
    }
    const description = JSON.parse(readFileSync(openapiPath, "utf8"));
    const base = "https://agentry.invalid/openai-openapi.json";
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: base, components: withoutNullable(description.components) });
    return { schemas: description.components.schemas, validate: ajv.getSchema(`${base}#/components/schemas/${request}`) };
}

// The members `schema` declares, through $ref and allOf (and, with `anyOf`, the object
// alternatives of anyOf); `deprecated`, when given, collects those marked deprecated.
export function declared(schemas, schema, { anyOf = false, deprecated = null } = {}, names = new Set()) {
    if (!isObject(schema)) return names;
    const more = (s) => declared(schemas, s, { anyOf, deprecated }, names);
    if (schema.$ref) more(schemas[schema.$ref.split("/").pop()]);
    for (const part of schema.allOf ?? []) more(part);
    if (anyOf) for (const part of schema.anyOf ?? []) if (part.type !== "null") more(part);
    for (const [name, member] of Object.entries(schema.properties ?? {})) {
        names.add(name);
        if (deprecated && member.deprecated) deprecated.add(name);
    }
    return names;
}

// Runs the check: every body the printer writes must pass `problems` (`note` may add a remark
// to a passing one), every body of `wrong` must not, and `last(bodies)` returns a failure
// message or nothing. Exits 0 when all passed, 1 otherwise.
export function run({ problems, wrong, note = () => "", last = () => null }) {
    const lines = execFileSync(process.argv[2], { encoding: "utf8" }).split("\n").filter((l) => l.length > 0);
    const bodies = lines.map((l) => JSON.parse(l));
    let failed = 0;
    for (const { name, body } of bodies) {
        const found = problems(body);
        if (found.length === 0) {
            console.log(`ok      ${name}${note(body)}`);
        } else {
            ++failed;
            console.log(`FAILED  ${name}\n        ${found.slice(0, 8).join("\n        ")}`);
        }
    }
    for (const [name, body] of Object.entries(wrong)) {
        if (problems(body).length === 0) {
            ++failed;
            console.log(`FAILED  the wrong body "${name}" passed`);
        } else {
            console.log(`ok      refused: ${name}`);
        }
    }
    const final = last(bodies);
    if (final) {
        ++failed;
        console.log(`FAILED  ${final}`);
    }
    if (lines.length === 0) {
        console.log("FAILED  the program printed no request");
        failed = 1;
    }
    console.log(`${lines.length} request bodies checked against ${path.relative(repo, openapiPath)}; ${failed} failure(s)`);
    process.exit(failed === 0 ? 0 : 1);
}

// The problems of `body`: the validator's errors, then the members `undeclared` finds.
export function problems_of(validate, undeclared) {
    return (body) => {
        const out = [];
        if (!validate(body)) for (const e of validate.errors) out.push(`${e.instancePath || "/"} ${e.message}`);
        for (const p of undeclared(body)) out.push(`${p}: not a member of the schema`);
        return out;
    };
}

// A checker that adds to `found` each member of `object` that `allowed` lacks, at `where`.
export function member_check(found) {
    return (object, allowed, where) => {
        if (!isObject(object)) return;
        for (const key of Object.keys(object)) if (!allowed.has(key)) found.push(`${where}/${key}`);
    };
}
