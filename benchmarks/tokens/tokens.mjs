// SPDX-License-Identifier: BSL-1.0
// Size of the OpenAI tools payload of the token benchmark's tools, in bytes and o200k_base
// tokens (js-tiktoken), for agentry (print_payloads.cpp), the same tools as Pydantic 2 models
// (models.py, python3) and as zod 4 schemas (schemas.mjs, z.toJSONSchema).
//
//   node benchmarks/tokens/tokens.mjs <agentry_token_payloads> [--markdown]
//   node benchmarks/tokens/tokens.mjs <agentry_token_payloads> --check [expected.json]
//   node benchmarks/tokens/tokens.mjs <agentry_token_payloads> --write [expected.json]
//
// Every payload is compact JSON, as agentry writes it (models.py uses json.dumps with compact
// separators, zod's is JSON.stringify). --check (the ctest test) compares the payloads with
// expected.json (agentry's exact text, every count), checks that agentry's payloads without
// natural bounds state every other constraint of the with_natural_bounds ones, and asserts
// agentry's OpenAI payloads at most 0.7x the Pydantic ones. Without pydantic that part is
// skipped with the reason; without js-tiktoken or zod the whole test is skipped (exit 77).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const skip = (why) => {
    console.log(`SKIP: ${why}`);
    process.exit(77);
};
const fail = (why) => {
    console.error(`FAIL: ${why}`);
    process.exitCode = 1;
};

let Tiktoken, o200k, zod_sets;
try {
    ({ Tiktoken } = await import("js-tiktoken/lite"));
    o200k = (await import("js-tiktoken/ranks/o200k_base")).default;
    ({ zod_sets } = await import("./schemas.mjs"));
} catch (e) {
    skip(`js-tiktoken or zod not found (${e.code ?? e.message}); run npm ci at the project root`);
}
const encoder = new Tiktoken(o200k);
const versions = {
    "js-tiktoken": JSON.parse(readFileSync(join(here, "../../node_modules/js-tiktoken/package.json"))).version,
    zod: JSON.parse(readFileSync(join(here, "../../node_modules/zod/package.json"))).version,
};

const [binary, mode = "--markdown", expectedPath = join(here, "expected.json")] = process.argv.slice(2);
if (!binary) {
    console.error("usage: tokens.mjs <agentry_token_payloads> [--markdown | --check [file] | --write [file]]");
    process.exit(2);
}

// "<source>/<set><TAB><payload>" lines into {source: {set: payload}}.
function parseLines(text) {
    const out = {};
    for (const line of text.split("\n")) {
        const tab = line.indexOf("\t");
        if (tab < 0) continue;
        const key = line.slice(0, tab);
        const slash = key.indexOf("/");
        if (slash < 0) {
            out[key] = line.slice(tab + 1);
            continue;
        }
        (out[key.slice(0, slash)] ??= {})[key.slice(slash + 1)] = line.slice(tab + 1);
    }
    return out;
}

const agentryRun = spawnSync(binary, { encoding: "utf8" });
if (agentryRun.status !== 0) {
    console.error(agentryRun.stderr);
    fail(`${binary} exited with ${agentryRun.status}`);
    process.exit(1);
}
const payloads = parseLines(agentryRun.stdout);

let pydanticNote = "";
const python = spawnSync("python3", [join(here, "models.py")], { encoding: "utf8" });
if (python.error) pydanticNote = `python3 not found (${python.error.code})`;
else if (python.status === 77) pydanticNote = python.stdout.trim().replace(/^SKIP: /, "");
else if (python.status !== 0) {
    console.error(python.stderr);
    fail(`models.py exited with ${python.status}`);
    process.exit(1);
} else {
    const p = parseLines(python.stdout);
    payloads.pydantic = p.pydantic;
    payloads.pydantic_strict = p.pydantic_strict;
    versions.pydantic = p.version;
}
if (pydanticNote) console.log(`Pydantic left out: ${pydanticNote}`);

payloads.zod = Object.fromEntries(Object.entries(zod_sets).map(([set, tools]) => [set, JSON.stringify(tools)]));

const sets = ["ticket_add", "flights", "all"];
const sources = Object.keys(payloads);
const counts = {};
for (const source of sources) {
    counts[source] = {};
    for (const set of sets) {
        const text = payloads[source][set];
        JSON.parse(text);  // every payload is valid JSON
        counts[source][set] = { bytes: Buffer.byteLength(text, "utf8"), tokens: encoder.encode(text).length };
    }
}

const ratio = (a, b) => (a / b).toFixed(2) + "x";
const label = {
    openai: "agentry `openai`",
    openai_strict: "agentry `openai_strict`",
    openai_natural: "agentry `with_natural_bounds<openai>`",
    openai_strict_natural: "agentry `with_natural_bounds<openai_strict>`",
    pydantic_strict: "Pydantic, as `pydantic_function_tool` sends it",
    pydantic: "Pydantic `model_json_schema()` as it is, strict false",
    zod: "zod `z.toJSONSchema`",
};
// Ratios of tokens: to the Pydantic payload the OpenAI SDK sends (pydantic_function_tool), to
// the plain model_json_schema() one, and to zod's.
function markdown() {
    const rows = [];
    rows.push("| tools | payload | bytes | o200k tokens | vs Pydantic (SDK) | vs Pydantic (plain) | vs zod |");
    rows.push("|---|---|--:|--:|--:|--:|--:|");
    for (const set of sets) {
        for (const source of sources) {
            const t = counts[source][set].tokens;
            const to = (other) => (counts[other] ? ratio(t, counts[other][set].tokens) : "");
            rows.push(`| ${set} | ${label[source] ?? source} | ${counts[source][set].bytes} | ${t} | ` +
                      `${to("pydantic_strict")} | ${to("pydantic")} | ${to("zod")} |`);
        }
    }
    return rows.join("\n");
}

// A payload's JSON with the natural bounds of C++ number types removed.
const naturalValues = new Set([
    "-128", "127", "255", "-32768", "32767", "65535", "-2147483648", "2147483647", "4294967295",
    "-9223372036854775808", "9223372036854775807", "18446744073709551615",
    "-1.7976931348623157e308", "1.7976931348623157e308", "-3.4028234663852886e38", "3.4028234663852886e38",
].map((v) => String(Number(v))));
function withoutNaturalBounds(node) {
    if (Array.isArray(node)) return node.map(withoutNaturalBounds);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    const unsignedTop = ["255", "65535", "4294967295", "18446744073709551615"].map((v) => String(Number(v)));
    const naturalUnsigned = node.minimum === 0 && unsignedTop.includes(String(node.maximum));
    for (const [k, v] of Object.entries(node)) {
        if ((k === "minimum" || k === "maximum") && typeof v === "number" &&
            (naturalValues.has(String(v)) || naturalUnsigned)) continue;
        out[k] = withoutNaturalBounds(v);
    }
    return out;
}

if (mode === "--markdown") {
    console.log(markdown());
    console.log(`\nversions: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(", ")}`);
} else if (mode === "--write") {
    const expected = {
        versions,
        agentry: { openai: payloads.openai.all, openai_strict: payloads.openai_strict.all },
        counts,
    };
    writeFileSync(expectedPath, JSON.stringify(expected, null, 1) + "\n");
    console.log(`wrote ${expectedPath}`);
} else if (mode === "--check") {
    const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
    for (const d of ["openai", "openai_strict"])
        if (payloads[d].all !== expected.agentry[d]) fail(`agentry ${d} payload differs:\n  got      ${payloads[d].all}\n  expected ${expected.agentry[d]}`);
    for (const source of sources) {
        if (source.startsWith("pydantic") && versions.pydantic !== expected.versions.pydantic) {
            console.log(`Pydantic ${versions.pydantic} (expected ${expected.versions.pydantic}): its counts are not compared`);
            continue;
        }
        if (source === "zod" && versions.zod !== expected.versions.zod) {
            console.log(`zod ${versions.zod} (expected ${expected.versions.zod}): its counts are not compared`);
            continue;
        }
        if (!isDeepStrictEqual(counts[source], expected.counts[source]))
            fail(`${source}: counts ${JSON.stringify(counts[source])}, expected ${JSON.stringify(expected.counts[source])}`);
    }
    // Nothing but the natural bounds is left out.
    for (const [lean, full] of [["openai", "openai_natural"], ["openai_strict", "openai_strict_natural"]]) {
        for (const set of sets) {
            const a = JSON.parse(payloads[lean][set]);
            const b = withoutNaturalBounds(JSON.parse(payloads[full][set]));
            if (!isDeepStrictEqual(a, b)) fail(`${lean}/${set} is not ${full}/${set} without natural bounds`);
            if (payloads[lean][set] === payloads[full][set] && set !== "flights")
                fail(`${full}/${set} has no natural bound`);
        }
    }
    // The target: agentry's OpenAI payloads at most 0.7x the same tools written as Pydantic
    // models: `openai` against model_json_schema() as it is (neither strict), `openai_strict`
    // against what the OpenAI SDK sends in strict mode (pydantic_function_tool).
    if (counts.pydantic && counts.pydantic_strict) {
        for (const [ours, theirs, what] of [["openai", "pydantic", "model_json_schema()"],
                                            ["openai_strict", "pydantic_strict", "pydantic_function_tool"]]) {
            const t = counts[ours].all.tokens, p = counts[theirs].all.tokens;
            console.log(`${ours}: ${t} tokens, ${ratio(t, p)} Pydantic (${what}, ${p})`);
            if (t > 0.7 * p) fail(`${ours} payload is ${ratio(t, p)} the Pydantic one (${what}); the target is at most 0.70x`);
        }
    } else {
        console.log(`the ratio to Pydantic is not checked: ${pydanticNote}`);
    }
    if (!process.exitCode) console.log("token payloads as expected");
} else {
    console.error(`unknown mode ${mode}`);
    process.exit(2);
}
