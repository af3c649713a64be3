// SPDX-License-Identifier: BSL-1.0
// Differential check of agentry's reader against ajv: for every type reader_check knows, the
// reader's verdict (agentry::json::read<T>(text).ok()) must equal the verdict of JSON Schema
// 2020-12 on the same text for agentry::json_schema<T>().
//
//   node reader_agree.mjs <path to reader_check> [instances per type, default 1000] [seed]
//
// Instances are generated from each schema with a seeded PRNG (every run checks the same texts):
// valid instances, and mutations of them: a required property dropped, an unknown one added, a
// value of another type, null in various places, numbers pushed across each bound by tiny
// (1-3 ulp) and large steps, integer-valued floats (1.0, 1e0), decimals around multipleOf,
// integers beyond 2^53 and 2^64, numbers beyond the double range, strings around length limits
// with multi-byte characters, pattern and format near-misses, duplicated array items (also
// equal only in value: 1 and 1.0, reordered keys), wrong enum names, nesting changes.
// Each instance is one text: JSON.stringify output, with some numbers spliced in as literal text
// (so that "1.0" or "1e400" reach both sides). Texts never hold duplicate keys or lone
// surrogates (the reader rejects those; JSON.parse cannot show them to ajv).
//
// Two references validate JSON.parse(text), both Ajv2020 strict with ajv-formats:
// - ajv as is, on the schema as printed. It sees doubles: 0.07 is no multiple of 0.01 there,
//   9007199254740993 = 9007199254740992, 1e-400 = 0, 1e400 = Infinity (not a number).
// - the exact reference: ajv on the schema with minimum, maximum, exclusiveMinimum,
//   exclusiveMaximum, multipleOf, type "integer", uniqueItems, and enum/const holding numbers
//   replaced by custom keywords that decide on the exact decimal value of the instance's number
//   text (and of the schema's), a number beyond the double range being a number; everything
//   else is ajv's, and an instance holding a number that rounds to Infinity as a double is
//   invalid, as agentry reads JSON by I-JSON (RFC 7493). Checked first on hand-made cases.
// The reader must agree with the exact reference on every instance; where it disagrees with
// plain ajv, the exact reference must disagree with plain ajv too.
// Output: per-type counts; "reader vs ajv: N instances, M disagreements (K of them where ajv's
// double arithmetic differs from the exact value)" with those K grouped by keyword; "reader vs
// exact reference (...): N instances, E disagreements"; the first 20 failures with all three
// verdicts and errors. READER_AGREE_DUMP=<file> writes every disagreement (with either
// reference) to <file> as JSON lines.
// Exit status: 0 all agree, 1 some disagree, 2 usage, helper or reference failure, 77 skipped
// (ajv not installed).

import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let Ajv2020, addFormats;
try {
    Ajv2020 = (await import("ajv/dist/2020.js")).default;
    addFormats = (await import("ajv-formats")).default;
} catch (e) {
    if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
    console.log(`SKIP: ajv or ajv-formats not installed (run npm ci in ${repo})`);
    process.exit(77);
}

if (process.argv.length < 3 || process.argv.length > 5) {
    console.error("usage: node reader_agree.mjs <path to reader_check> [instances per type] [seed]");
    process.exit(2);
}
const helper = process.argv[2];
const perType = Number(process.argv[3] ?? 1000);
const seed = Number(process.argv[4] ?? 0x7eade2);
if (!Number.isInteger(perType) || perType < 1 || !Number.isInteger(seed)) {
    console.error("reader_agree: the count and the seed must be integers, the count positive");
    process.exit(2);
}

function runHelper(args, input) {
    const run = spawnSync(helper, args, { input, encoding: "utf8", maxBuffer: 1 << 30 });
    if (run.error || run.status !== 0) {
        console.error(`reader_agree: ${helper} ${args.join(" ")} failed: ${run.error ?? `exit status ${run.status}`}\n${run.stderr ?? ""}`);
        process.exit(2);
    }
    return run.stdout.split("\n").filter((line) => line !== "");
}

// ---- seeded PRNG --------------------------------------------------------------------------

function mulberry32(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
const random = mulberry32(seed);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)); // inclusive
const chance = (p) => random() < p;
const pick = (items) => items[Math.floor(random() * items.length)];
const weighted = (pairs) => {
    // [[weight, value], ...]
    let total = 0;
    for (const [w] of pairs) total += w;
    let r = random() * total;
    for (const [w, v] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][1];
};

// ---- instance text: JSON.stringify with literal number text spliced in --------------------

// A number written as this exact JSON text ("1.0", "1e400", "9007199254740993").
class Raw {
    constructor(text) {
        if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) throw new Error(`reader_agree: bad number text ${text}`);
        this.text = text;
    }
}
const MARK = "\ue000"; // never produced by the string generators below
function serialize(value) {
    const raws = [];
    if (value === undefined) return undefined;
    const text = JSON.stringify(value, (key, v) => {
        if (v instanceof Raw) {
            raws.push(v.text);
            return `${MARK}${raws.length - 1}${MARK}`;
        }
        return v;
    });
    return text.replace(new RegExp(`"${MARK}(\\d+)${MARK}"`, "g"), (_, i) => raws[Number(i)]);
}
const clone = (v) => (v instanceof Raw ? new Raw(v.text) : Array.isArray(v) ? v.map(clone) : isObject(v) ? cloneObject(v) : v);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Raw);
// Own data properties only, so that "__proto__" is a key like any other.
function put(o, k, v) {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}
function cloneObject(o) {
    const out = {};
    for (const k of Object.keys(o)) put(out, k, clone(o[k]));
    return out;
}

// ---- schemas: parsed with the exact text of their numbers ---------------------------------

// JSON.parse, except that every object gets a hidden `numText` map from key to the literal
// text of a number member (a bound of 9007199254740993 must not become 9007199254740992).
function parseKeepingNumbers(text) {
    let i = 0;
    const ws = () => {
        while (i < text.length && " \t\r\n".includes(text[i])) ++i;
    };
    const value = () => {
        ws();
        const c = text[i];
        if (c === "{") {
            ++i;
            const o = {};
            const numText = {};
            ws();
            if (text[i] === "}") {
                ++i;
            } else {
                for (;;) {
                    ws();
                    const k = string();
                    ws();
                    ++i; // :
                    ws();
                    const start = i;
                    const v = value();
                    if (typeof v === "number") numText[k] = text.slice(start, i);
                    put(o, k, v);
                    ws();
                    if (text[i++] === "}") break;
                }
            }
            Object.defineProperty(o, "numText", { value: numText, enumerable: false });
            return o;
        }
        if (c === "[") {
            ++i;
            const a = [];
            ws();
            if (text[i] === "]") {
                ++i;
                return a;
            }
            for (;;) {
                a.push(value());
                ws();
                if (text[i++] === "]") break;
            }
            return a;
        }
        if (c === '"') return string();
        const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
        i += m[0].length;
        return JSON.parse(m[0]);
    };
    const string = () => {
        const start = i++;
        while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        ++i;
        return JSON.parse(text.slice(start, i));
    };
    return value();
}

// ---- strings ------------------------------------------------------------------------------

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const DIGITS = "0123456789";
const ALNUM = LOWER + UPPER + DIGITS;
const PRINTABLE = Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k));
const CONTROL = Array.from({ length: 32 }, (_, k) => String.fromCharCode(k)).concat(["\x7f"]);
// Multi-byte characters: 2, 3 and 4 UTF-8 bytes, combining marks, letters of other scripts,
// characters whose case maps to ASCII, and Unicode white space (and look-alikes that are not).
const MULTIBYTE = ["é", "ß", "ñ", "Ω", "ω", "Ж", "ж", "中", "€", "あ", "😀", "😺", "🙏", "🚀", "\u{10ffff}", "\u{1d7ce}", "\u0301",
    "\u00e0", "\u00f7", "\u00ff", "\u00c0", "\u0100", "\u017f", "\u0130", "\u0131", "\u212a", "\u00aa", "\u01c5", "\u0660", "\uff11"];
const SPACES = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f",
    "\u205f", "\u3000", "\ufeff"];
const NOT_SPACES = ["\u180e", "\u200b", "\u0085", "\u00ad", "\u2060"];
function someChar() {
    return weighted([
        [55, () => pick(ALNUM)],
        [15, () => pick(PRINTABLE)],
        [3, () => pick(CONTROL)],
        [17, () => pick(MULTIBYTE)],
        [7, () => pick(SPACES)],
        [3, () => pick(NOT_SPACES)],
    ])();
}
const chars = (n, f = someChar) => Array.from({ length: n }, f).join("");
const cps = (s) => [...s];
const cpLength = (s) => [...s].length;

// Samplers for the patterns used by the fixtures: [valid samples, near-miss samples].
const wordish = () => chars(int(0, 4), () => pick(chance(0.8) ? ALNUM + "_" : MULTIBYTE.concat(SPACES, [".", "-"])));
const PATTERNS = {
    "^[A-Z]{3}$": () => chars(3, () => pick(UPPER)),
    "^[a-z]+$": () => chars(int(1, 8), () => pick(LOWER)),
    "^[a-z0-9_]+$": () => chars(int(1, 10), () => pick(LOWER + DIGITS + "_")),
    "^\\d{3}-\\d{4}$": () => `${chars(3, () => pick(DIGITS))}-${chars(4, () => pick(DIGITS))}`,
    "^.{2,4}$": () => chars(int(2, 4), () => (chance(0.7) ? pick(ALNUM) : pick(MULTIBYTE))),
    "\\bcat\\b": () => pick(["", "a ", "the ", "é", "_", "1", "(", "😀"]) + "cat" + pick(["", " b", "s", "!", "é", "_", "\n", "😀"]),
    "^\\p{Lu}\\p{Ll}+$": () => pick([...UPPER, "Ω", "Ж", "É", "\u0130", "\u01c5"]) + chars(int(1, 6), () => pick([...LOWER, "é", "ж", "ω", "ß", "\u017f", "\u0131"])),
    "^(?!admin)\\w+$": () => (chance(0.3) ? pick(["admin", "Admin", "admi", "xadmin", "administrator"]) : "") + chars(int(1, 6), () => pick(ALNUM + "_")),
    "(\\w)\\1": () => wordish() + pick([..."aAz09_"]).repeat(2) + wordish(),
    "^\\s*x\\s*$": () => chars(int(0, 2), () => pick(SPACES)) + "x" + chars(int(0, 2), () => pick(SPACES)),
    "^[\u00e0-\u00ff]+$": () => chars(int(1, 5), () => String.fromCodePoint(int(0xe0, 0xff))),
    "^[\\u{1F600}-\\u{1F64F}]$": () => String.fromCodePoint(int(0x1f600, 0x1f64f)),
    "a|b": () => wordish() + pick(["a", "b"]) + wordish(),
    "^\\S+$": () => chars(int(1, 4), () => (chance(0.7) ? pick(ALNUM) : pick(MULTIBYTE))),
};
// A near miss: a valid sample with one or two code points inserted, removed, replaced, case
// changed, or white space / a line terminator added at an end.
function nearMiss(s) {
    const a = cps(s);
    for (let k = int(1, 2); k > 0; --k) {
        const at = int(0, a.length);
        switch (int(0, 7)) {
        case 0: a.splice(at, 0, someChar()); break;
        case 1: a.splice(at, 1); break;
        case 2: a.splice(at, 1, someChar()); break;
        case 3: a.splice(at, 1, ...(a[at] ?? "").toUpperCase()); break;
        case 4: a.splice(at, 1, ...(a[at] ?? "").toLowerCase()); break;
        case 5: a.push(pick(["\n", " ", "\r\n", "\u2028", "x", "😀"])); break;
        case 6: a.unshift(pick(["\n", " ", "x", "😀", "\ufeff"])); break;
        case 7: a.splice(at, 0, ...a.slice(at, at + int(1, 3))); break;
        }
    }
    return a.join("");
}

// ---- formats ------------------------------------------------------------------------------

const pad = (n, w) => String(n).padStart(w, "0");
const HEX = "0123456789abcdefABCDEF";
function genDate() {
    const y = chance(0.8) ? int(1900, 2100) : pick([0, 4, 100, 400, 1600, 2000, 2400, 9999]);
    const m = int(1, 12);
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
    return `${pad(y, 4)}-${pad(m, 2)}-${pad(chance(0.8) ? int(1, days) : days, 2)}`;
}
function genTime() {
    const frac = chance(0.3) ? "." + chars(int(1, 9), () => pick(DIGITS)) : "";
    const off = chance(0.5) ? pick(["Z", "z"]) : `${pick(["+", "-"])}${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}`;
    if (chance(0.05)) return `23:59:60${frac}Z`;
    return `${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}:${pad(int(0, 59), 2)}${frac}${off}`;
}
const FORMATS = {
    "date-time": () => `${genDate()}${pick(["T", "T", "t"])}${genTime()}`,
    date: genDate,
    time: genTime,
    duration: () => pick([
        () => `P${int(0, 99)}W`,
        () => {
            let s = "P";
            for (const d of ["Y", "M", "D"]) if (chance(0.5)) s += int(0, 99) + d;
            if (chance(0.6) || s === "P") {
                s += "T";
                let any = false;
                for (const d of ["H", "M", "S"]) if (chance(0.5)) (s += int(0, 99) + d), (any = true);
                if (!any) s += int(0, 9) + "S";
            }
            return s;
        },
    ])(),
    email: () => `${chars(int(1, 8), () => pick(ALNUM + "._+-"))}@${chars(int(1, 8), () => pick(LOWER))}.${pick(["com", "org", "io", "co.uk"])}`,
    hostname: () => Array.from({ length: int(1, 4) }, () => pick(LOWER) + chars(int(0, 8), () => pick(LOWER + DIGITS + "-")) + pick(LOWER)).join("."),
    ipv4: () => Array.from({ length: 4 }, () => String(int(0, 255))).join("."),
    ipv6: () => pick([
        () => Array.from({ length: 8 }, () => chars(int(1, 4), () => pick(HEX))).join(":"),
        () => `${chars(int(1, 4), () => pick(HEX))}::${chars(int(1, 4), () => pick(HEX))}`,
        () => "::1",
        () => `::ffff:${FORMATS.ipv4()}`,
        () => `fe80::${chars(4, () => pick(HEX))}:${chars(4, () => pick(HEX))}`,
    ])(),
    uuid: () => [8, 4, 4, 4, 12].map((n) => chars(n, () => pick(HEX))).join("-"),
    uri: () => pick([
        () => `${pick(["http", "https", "ftp"])}://${FORMATS.hostname()}${chance(0.3) ? ":" + int(0, 65535) : ""}/${chars(int(0, 6), () => pick(ALNUM + "/-._~%"))}`,
        () => `urn:isbn:${chars(10, () => pick(DIGITS))}`,
        () => `mailto:${FORMATS.email()}`,
        () => `http://[${FORMATS.ipv6()}]/`,
        () => `foo:${chars(int(0, 5), () => pick(ALNUM))}?q=${chars(int(0, 5), () => pick(ALNUM))}#f`,
    ])(),
};
const FORMAT_MISSES = {
    "date-time": ["2024-02-29T23:59:60Z", "2023-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T24:00:00Z",
        "2024-01-01T00:00:00+0100", "2024-01-01\u00a000:00:00Z", "2024-13-01T00:00:00Z"],
    date: ["2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "2024-04-31", "2024-1-01", "20240101", "2024-01-01 "],
    time: ["23:59:60Z", "22:59:60-01:00", "23:59:61Z", "12:00:00", "12:00:00+05", "24:00:00Z", "12:00:00.Z", "23:58:60Z"],
    duration: ["P", "PT", "P1", "P1DT", "P1Y1W", "P1.5Y", "p1y", "PT1D", "P1H"],
    email: ["a@b", "a..b@c.com", ".a@b.com", "a@b..com", "a@-b.com", "@b.com", "a@", "a b@c.com", "é@b.com", "a@[127.0.0.1]"],
    hostname: ["-a.com", "a-.com", "a..b", "a.b.", "a_b.com", "é.com", "a".repeat(64) + ".com", "a".repeat(63), ""],
    ipv4: ["256.1.1.1", "1.1.1", "1.1.1.1.1", "01.1.1.1", "1.1.1.1 ", "0x1.1.1.1", "١.1.1.1"],
    ipv6: ["1::2::3", ":::", "1:2:3:4:5:6:7:8:9", "g::1", "::ffff:256.1.1.1", "fe80::1%eth0", "12345::"],
    uuid: ["123e4567-e89b-12d3-a456-42661417400", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
        "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "g23e4567-e89b-12d3-a456-426614174000"],
    uri: ["//example.com", "/a/b", "a b:c", "http://a b/", "http://a/%zz", "1http://a", "http://[::1", "http://é.com/", "foo:", ""],
};

function genString(s) {
    if (s.format && FORMATS[s.format]) return FORMATS[s.format]();
    const lo = s.minLength ?? 0;
    const hi = s.maxLength ?? lo + (chance(0.9) ? 12 : 300);
    for (let attempt = 0; attempt < 8; ++attempt) {
        let v;
        if (s.pattern !== undefined) {
            v = PATTERNS[s.pattern] ? PATTERNS[s.pattern]() : chars(int(lo, Math.min(hi, lo + 12)));
        } else {
            v = chars(int(lo, Math.min(hi, lo + (chance(0.9) ? 12 : 300))));
        }
        const n = cpLength(v);
        if (n >= lo && n <= hi) return v;
    }
    return chars(lo);
}

function mutateString(s, v) {
    const lo = s.minLength;
    const hi = s.maxLength;
    const options = [
        [3, () => nearMiss(typeof v === "string" ? v : "")],
        [1, () => ""],
        [1, () => chars(int(0, 20))],
    ];
    // lengths at and across the limits, in ASCII, in multi-byte characters, mixed
    for (const limit of [lo, hi]) {
        if (limit === undefined) continue;
        options.push([6, () => {
            const n = Math.max(0, limit + pick([-2, -1, -1, 0, 0, 1, 1, 2]));
            return chars(n, pick([() => pick(ALNUM), () => pick(MULTIBYTE), someChar, () => pick(["😀", "中", "é"])]));
        }]);
    }
    if (s.pattern !== undefined) {
        options.push([6, () => nearMiss(PATTERNS[s.pattern] ? PATTERNS[s.pattern]() : genString(s))]);
        options.push([2, () => (PATTERNS[s.pattern] ? PATTERNS[s.pattern]() : "") + pick(["\n", "\r", "\u2028", " "])]);
        // samples of the other patterns
        options.push([2, () => pick(Object.values(PATTERNS))()]);
    }
    if (s.format !== undefined) {
        options.push([5, () => pick(FORMAT_MISSES[s.format] ?? [""])]);
        options.push([6, () => nearMiss(FORMATS[s.format]())]);
        options.push([2, () => pick(Object.values(FORMATS))()]);
        options.push([1, () => pick(Object.values(FORMAT_MISSES).flat())]);
    }
    return weighted(options)();
}

// ---- numbers ------------------------------------------------------------------------------

// One double to the next: k ulps up (k > 0) or down.
const buffer = new DataView(new ArrayBuffer(8));
function ulpStep(x, k) {
    if (!Number.isFinite(x)) return x;
    for (let n = 0; n < Math.abs(k); ++n) {
        const up = k > 0;
        if (x === 0) {
            x = up ? Number.MIN_VALUE : -Number.MIN_VALUE;
            continue;
        }
        buffer.setFloat64(0, x);
        let bits = buffer.getBigUint64(0);
        bits += (x > 0) === up ? 1n : -1n;
        buffer.setBigUint64(0, bits);
        x = buffer.getFloat64(0);
    }
    return x;
}

// Decimal numbers as BigInt significand * 10^exponent, for exact multiples of multipleOf.
function toDecimal(text) {
    const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
    const digits = m[2] + (m[3] ?? "");
    let sig = BigInt(digits);
    if (m[1]) sig = -sig;
    return { sig, exp: Number(m[4] ?? 0) - (m[3] ?? "").length };
}
// The decimal as JSON number text, plain ("0.07") or in exponent form ("7e-2").
function decimalText({ sig, exp }, exponentForm) {
    const negative = sig < 0n;
    let digits = (negative ? -sig : sig).toString();
    if (exponentForm) return `${negative ? "-" : ""}${digits}e${exp}`;
    if (exp >= 0) return (negative ? "-" : "") + digits + "0".repeat(exp);
    const point = digits.length + exp;
    if (point <= 0) digits = "0".repeat(1 - point) + digits;
    const at = digits.length + exp;
    return `${negative ? "-" : ""}${digits.slice(0, at)}.${digits.slice(at)}`;
}
function randomBigInt(maxDigits) {
    let s = String(int(1, 9));
    const n = int(0, maxDigits - 1);
    for (let k = 0; k < n; ++k) s += pick(DIGITS);
    return BigInt(s) * (chance(0.3) ? -1n : 1n);
}

// Bounds of a number schema: [keyword, value, literal text].
function boundsOf(s) {
    return ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"]
        .filter((k) => s[k] !== undefined)
        .map((k) => [k, s[k], s.numText?.[k] ?? String(s[k])]);
}
const isIntegerSchema = (s) => (Array.isArray(s.type) ? s.type.includes("integer") : s.type === "integer");

// Numbers that every numeric schema should see: integer-valued floats, -0, overflow and
// underflow, the limits of the integer widths, 2^53, 2^63, 2^64, float's limit.
const SPECIAL_NUMBERS = [
    "-0", "-0.0", "0.0", "0e5", "0E-5", "1.0", "1e0", "1E2", "1e+2", "0.1e1", "10e-1", "-1.0", "1.5", "-1.5", "1e400", "-1e400",
    "1e-400", "-1e-400", "1.7976931348623157e308", "1.7976931348623159e308", "-1.7976931348623157e308", "5e-324", "2e-324",
    "2.2250738585072014e-308", "1e308", "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740993.0",
    "-9007199254740993", "9223372036854775807", "9223372036854775808", "9.223372036854775807e18", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616", "1.8446744073709551615e19", "1e19", "1e20", "1e21",
    "1e22", "123456789012345678901234567890", "3.4028234663852886e38", "3.4028235e38", "3.4028236e38", "1e38", "1e39", "-1e39",
    "1e-46", "0.1", "0.3", "0.30000000000000004", "0.07", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295",
    "4294967296", "255", "256", "127", "128", "-128", "-129", "65535", "65536", "32767", "32768", "-32768", "-32769", "-1",
    "1.0000000000000002", "0.9999999999999999", "1.00000000000000011", "100.0000000000000001",
].map((t) => new Raw(t));

function numberMutation(s) {
    const int_ = isIntegerSchema(s);
    const options = [[3, () => pick(SPECIAL_NUMBERS)]];
    for (const [, b, text] of boundsOf(s)) {
        options.push([8, () => pick([
            () => new Raw(text),
            () => ulpStep(b, pick([-3, -2, -1, 1, 2, 3])),
            () => b + pick([-1, 1, -0.5, 0.5, -1e-9, 1e-9, -1e6, 1e6, -1e20, 1e20]),
            () => b * pick([10, -1, 0.1, 1 + 1e-15, 1 - 1e-15, 1e10]),
            () => new Raw(/^-?\d+$/.test(text) ? `${text}.0` : /^[^eE]*\.\d*$/.test(text) ? `${text}0` : `${text}`),
            () => new Raw(/[eE]/.test(text) ? text : `${text}e0`),
            () => new Raw(`${text}${/[.eE]/.test(text) ? "" : "."}0000000000000001`),
            () => (/^-?\d+$/.test(text) ? new Raw(String(BigInt(text) + BigInt(pick([-2, -1, 1, 2])))) : new Raw(text.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10)))),
        ])()]);
    }
    if (s.multipleOf !== undefined) {
        const m = toDecimal(s.numText?.multipleOf ?? String(s.multipleOf));
        options.push([10, () => {
            const k = pick([() => BigInt(int(-30, 30)), () => BigInt(int(-100000, 100000)), () => randomBigInt(16), () => randomBigInt(24)])();
            const exact = { sig: m.sig * k, exp: m.exp };
            return pick([
                () => new Raw(decimalText(exact, chance(0.3))),
                () => Number(k) * s.multipleOf, // the binary floating-point product, as a client would compute it
                () => new Raw(decimalText({ sig: exact.sig * 10n + m.sig * 5n, exp: m.exp - 1 }, false)), // k + 1/2 multiples
                () => new Raw(decimalText({ sig: exact.sig * 1000n + 1n, exp: m.exp - 3 }, false)), // just off
                () => ulpStep(Number(decimalText(exact, false)), pick([-1, 1])),
            ])();
        }]);
    }
    if (int_) options.push([3, () => pick([() => int(-1000, 1000) + 0.5, () => new Raw(`${int(-1000, 1000)}.0`), () => new Raw(`${int(1, 99)}e${int(0, 3)}`)])()]);
    return weighted(options)();
}

function genNumber(s) {
    const int_ = isIntegerSchema(s);
    let lo = -1e6;
    let hi = 1e6;
    if (chance(0.1)) [lo, hi] = [-1e15, 1e15];
    if (s.minimum !== undefined) lo = Math.max(lo, s.minimum);
    if (s.exclusiveMinimum !== undefined) lo = Math.max(lo, ulpStep(s.exclusiveMinimum, 1));
    if (s.maximum !== undefined) hi = Math.min(hi, s.maximum);
    if (s.exclusiveMaximum !== undefined) hi = Math.min(hi, ulpStep(s.exclusiveMaximum, -1));
    if (lo > hi) [lo, hi] = [Math.min(lo, hi), Math.max(lo, hi)];
    if (s.multipleOf !== undefined) {
        const m = toDecimal(s.numText?.multipleOf ?? String(s.multipleOf));
        const kLo = Math.ceil(lo / s.multipleOf);
        const kHi = Math.floor(hi / s.multipleOf);
        const k = BigInt(chance(0.5) ? int(Math.max(kLo, -50), Math.min(kHi, 50)) : Math.floor(kLo + random() * (kHi - kLo + 1)));
        const exact = { sig: m.sig * k, exp: m.exp };
        return chance(0.8) ? new Raw(decimalText(exact, chance(0.2))) : Number(decimalText(exact, false));
    }
    if (int_) {
        if (chance(0.1)) return pick([lo, hi].filter(Number.isFinite));
        if (s.minimum === undefined && s.maximum === undefined && chance(0.1)) return new Raw(String(randomBigInt(18)));
        const v = Math.floor(lo + random() * (hi - lo + 1));
        return chance(0.05) ? new Raw(`${v}.0`) : v;
    }
    return weighted([
        [3, () => lo + random() * (hi - lo)],
        [3, () => Math.round((lo + random() * (hi - lo)) * 100) / 100],
        [1, () => pick([lo, hi])],
        [1, () => ulpStep(pick([lo, hi]), pick([-1, 1]))],
        [1, () => Math.floor(lo + random() * (hi - lo))],
    ])();
}

// ---- any JSON value -----------------------------------------------------------------------

function randomJson(depth = 0) {
    return weighted([
        [2, () => null],
        [2, () => chance(0.5)],
        [3, () => int(-1000, 1000)],
        [2, () => random() * 1e6 - 5e5],
        [2, () => pick(SPECIAL_NUMBERS)],
        [3, () => chars(int(0, 8))],
        [depth < 3 ? 2 : 0, () => Array.from({ length: int(0, 3) }, () => randomJson(depth + 1))],
        [depth < 3 ? 2 : 0, () => {
            const o = {};
            for (let k = int(0, 3); k > 0; --k) put(o, pick(["a", "b", "c", "x", "é", "", "key"]), randomJson(depth + 1));
            return o;
        }],
    ])();
}

// ---- generating instances -----------------------------------------------------------------

// Every generated value is recorded as a site { box, key, schema, parent } so that a mutation
// can later replace it (box[key] = ...), or, for a property, remove it.
class Generator {
    constructor(root) {
        this.root = root;
    }
    resolve(s) {
        for (let n = 0; n < 8 && s && s.$ref !== undefined; ++n) {
            if (s.$ref === "#") s = this.root;
            else s = s.$ref.slice(2).split("/").reduce((node, part) => node[part], this.root);
        }
        return s;
    }
    instance(mutations) {
        this.sites = [];
        const box = { v: undefined };
        box.v = this.gen(this.root, 0, box, "v", null);
        for (let k = 0; k < mutations && this.sites.length > 0; ++k) {
            const site = pick(this.sites);
            mutate(this, site);
        }
        return box.v;
    }
    gen(schema, depth, box, key, parent) {
        const s = this.resolve(schema);
        const site = { box, key, schema: s, parent, depth };
        this.sites.push(site);
        return this.valid(s, depth, site);
    }
    valid(s, depth) {
        if (s.anyOf) return this.valid(this.resolve(pick(s.anyOf)), depth);
        let type = s.type;
        if (Array.isArray(type)) type = chance(0.2) && type.includes("null") ? "null" : pick(type.filter((t) => t !== "null"));
        if (s.enum) return pick(s.enum.filter((e) => (type === "null" ? e === null : e !== null)));
        switch (type) {
        case undefined: return randomJson();
        case "null": return null;
        case "boolean": return chance(0.5);
        case "integer":
        case "number": return genNumber(s);
        case "string": return genString(s);
        case "array": return this.array(s, depth);
        case "object": return this.object(s, depth);
        }
        throw new Error(`reader_agree: no generator for ${JSON.stringify(s)}`);
    }
    array(s, depth) {
        const lo = s.minItems ?? 0;
        let hi = s.maxItems ?? lo + (depth > 3 ? 0 : 4);
        if (depth > 4) hi = lo;
        const n = int(lo, hi);
        const out = [];
        const seen = new Set();
        for (let k = 0, tries = 0; k < n && tries < n * 10; ++tries) {
            const box = { v: undefined };
            const site = { out, index: k };
            const startSites = this.sites.length;
            const v = this.gen(s.items ?? {}, depth + 1, box, "v", site);
            const text = serialize(v);
            if (s.uniqueItems && seen.has(numberKey(v) ?? text)) {
                this.sites.length = startSites;
                continue;
            }
            seen.add(numberKey(v) ?? text);
            // the element's sites point into the array from now on
            for (let i = startSites; i < this.sites.length; ++i) if (this.sites[i].box === box) (this.sites[i].box = out), (this.sites[i].key = k);
            out.push(v);
            ++k;
        }
        return out;
    }
    object(s, depth) {
        const out = {};
        const required = new Set(s.required ?? []);
        for (const [name, sub] of Object.entries(s.properties ?? {})) {
            if (!required.has(name) && !chance(depth > 3 ? 0.2 : 0.6)) continue;
            const startSites = this.sites.length;
            put(out, name, this.gen(sub, depth + 1, out, name, { object: s, name }));
            this.sites[startSites].property = { object: out, name, required: required.has(name), schema: s };
        }
        if (isObject(s.additionalProperties) || s.additionalProperties === true) {
            const n = depth > 3 ? int(0, 1) : int(0, 4);
            for (let k = 0; k < n; ++k) {
                const name = pick(["a", "b", "key", "x1", "", "a/b", "~0", "é", "😀", "with space", "A", "__proto__", chars(int(1, 5))]);
                if (Object.prototype.hasOwnProperty.call(out, name)) continue;
                const startSites = this.sites.length;
                put(out, name, this.gen(s.additionalProperties, depth + 1, out, name, { object: s, name }));
                this.sites[startSites].property = { object: out, name, required: false, schema: s };
            }
        }
        return out;
    }
}

// Numbers compare by value in uniqueItems: 1 and 1.0 are equal.
function numberKey(v) {
    if (typeof v === "number") return `n:${v}`;
    if (v instanceof Raw) return `n:${Number(v.text)}`;
    return undefined;
}

// Replaces (or removes) the value of a site with a near miss.
function mutate(g, site) {
    const s = site.schema;
    const current = Object.prototype.hasOwnProperty.call(site.box, site.key) ? site.box[site.key] : undefined;
    const set = (v) => put(site.box, site.key, v);
    const options = [
        [2, () => set(null)],
        [2, () => set(randomJson())],
        [1, () => set([clone(current)])],
        [1, () => {
            const o = {};
            put(o, "value", clone(current));
            set(o);
        }],
        [1, () => set(serialize(current) ?? "")],
    ];
    if (site.property) {
        const { object, name, schema } = site.property;
        options.push([4, () => delete object[name]]);
        options.push([3, () => {
            const names = Object.keys(schema.properties ?? {});
            const other = pick([name + "_", name.toUpperCase(), cps(name).slice(1).join(""), `${name} `, "extra", "", "__proto__",
                ...names.map((n) => n + "s"), "é", "0"]);
            if (!Object.prototype.hasOwnProperty.call(object, other)) put(object, other, chance(0.5) ? clone(current) : randomJson());
        }]);
        options.push([2, () => {
            // rename: the value under a near-miss of its own name
            const other = pick([name.toUpperCase(), name + "_", cps(name).slice(0, -1).join(""), `${name}\u0000`, name.replace(/./u, (c) => c.toUpperCase())]);
            if (other !== name && !Object.prototype.hasOwnProperty.call(object, other)) {
                delete object[name];
                put(object, other, current);
            }
        }]);
    }
    const kinds = s.anyOf ? ["anyOf"] : Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["any"];
    if (s.anyOf) {
        options.push([6, () => {
            const alt = g.resolve(pick(s.anyOf));
            const inner = { box: site.box, key: site.key, schema: alt, parent: site.parent };
            put(site.box, site.key, g.valid(alt, site.depth ?? 0));
            mutate(g, inner);
        }]);
    }
    if (s.enum) {
        options.push([8, () => {
            const names = s.enum.filter((e) => typeof e === "string");
            const n = pick(names);
            set(pick([n.toUpperCase(), n[0].toUpperCase() + n.slice(1), n + " ", " " + n, cps(n).slice(0, -1).join(""), n + "s", "", "kelvin",
                names.join(","), pick(names), 0, 1, n.replace(/./u, "\u0441")]));
        }]);
    }
    for (const kind of kinds) {
        switch (kind) {
        case "integer":
        case "number":
            options.push([12, () => set(numberMutation(s))]);
            options.push([1, () => set(String(typeof current === "number" ? current : 1))]);
            options.push([1, () => set(chance(0.5))]);
            break;
        case "string":
            if (!s.enum) options.push([12, () => set(mutateString(s, current))]);
            options.push([1, () => set(pick([0, 1, true, false, []]))]);
            break;
        case "boolean":
            options.push([4, () => set(pick(["true", "false", 0, 1, new Raw("1.0"), "", []]))]);
            break;
        case "array":
            if (Array.isArray(current)) {
                options.push([s.uniqueItems ? 16 : 4, () => {
                    // duplicate an item, exactly or only in value (1.0 for 1, keys reordered,
                    // an optional member added or dropped)
                    if (current.length === 0) return current.push(g.valid(g.resolve(s.items ?? {}), 0));
                    const dup = valueTwin(clone(pick(current)), g.resolve(s.items ?? {}));
                    current.splice(int(0, current.length), 0, dup);
                }]);
                options.push([3, () => {
                    const extra = int(1, 3);
                    for (let k = 0; k < extra; ++k) current.push(g.valid(g.resolve(s.items ?? {}), 4));
                }]);
                options.push([3, () => current.splice(int(0, current.length), int(1, 2))]);
                options.push([1, () => set([])]);
                options.push([2, () => current.splice(int(0, current.length), 0, randomJson(2))]);
                options.push([1, () => set([current])]);
            }
            break;
        case "object":
            if (isObject(current)) {
                options.push([3, () => {
                    const keys = Object.keys(current);
                    if (keys.length) delete current[pick(keys)];
                }]);
                options.push([3, () => {
                    const name = pick(["extra", "", "__proto__", "é", "😀", "a/b", "~1", chars(int(1, 6))]);
                    if (!Object.prototype.hasOwnProperty.call(current, name)) put(current, name, randomJson(2));
                }]);
                options.push([2, () => {
                    const keys = Object.keys(current);
                    if (keys.length) put(current, pick(keys), null);
                }]);
                options.push([1, () => set(Object.values(current))]);
            }
            break;
        case "null":
            options.push([2, () => set(pick([0, false, "", "null", {}, []]))]);
            break;
        }
    }
    weighted(options)();
}

// A value equal to v as JSON Schema compares values (uniqueItems), but written differently:
// integer-valued numbers with a fraction or exponent, object keys in another order; or, for
// objects, with an optional member added or removed (a different value that a typed reader
// may see as equal).
function valueTwin(v, itemSchema) {
    if (typeof v === "number" && Number.isFinite(v)) {
        const t = String(v);
        if (/[eE]/.test(t)) return pick([v, new Raw(t.replace(/e\+?/, "E"))]);
        return pick([v, new Raw(t.includes(".") ? `${t}0` : `${t}.0`), new Raw(`${t}e0`), new Raw(t.includes(".") ? t : t === "0" ? "0e1" : `${t}0e-1`)]);
    }
    if (v instanceof Raw) return Number.isFinite(Number(v.text)) ? pick([v, new Raw(String(Number(v.text)))]) : v;
    if (Array.isArray(v)) return v.map((e) => valueTwin(e, itemSchema?.items));
    if (isObject(v)) {
        const keys = Object.keys(v);
        if (chance(0.5)) keys.reverse();
        const out = {};
        for (const k of keys) put(out, k, valueTwin(v[k], itemSchema?.properties?.[k]));
        if (itemSchema?.properties && chance(0.6)) {
            // likely defaults of an optional member: 0, 1, "", false
            const optional = Object.keys(itemSchema.properties).filter((k) => !(itemSchema.required ?? []).includes(k));
            if (optional.length) {
                const k = pick(optional);
                if (Object.prototype.hasOwnProperty.call(out, k)) delete out[k];
                else put(out, k, pick([0, 1, 1, "", false]));
            }
        }
        return out;
    }
    return v;
}

// ---- the exact reference --------------------------------------------------------------------

// JSON Schema's numbers are decimal values: ajv with the keywords that look at a number's value
// replaced by exact ones, which read the instance's number text.

// A number's exact value: (-1)^neg * coef * 10^exp, coef without trailing zeros (0: 0n, 0n).
class Decimal {
    constructor(text) {
        const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
        if (!m) throw new Error(`reader_agree: bad number text ${text}`);
        const frac = m[3] ?? "";
        const digits = (m[2] + frac).replace(/^0+/, "");
        const trimmed = digits.replace(/0+$/, "");
        this.text = text;
        this.neg = trimmed !== "" && m[1] === "-";
        this.coef = BigInt(trimmed || "0");
        this.exp = trimmed === "" ? 0n : BigInt(m[4] ?? 0) - BigInt(frac.length) + BigInt(digits.length - trimmed.length);
        this.digits = trimmed.length; // of coef
    }
    isInteger() {
        return this.coef === 0n || this.exp >= 0n;
    }
    key() {
        return `n${this.neg ? "-" : ""}${this.coef}e${this.exp}`;
    }
}
// -1, 0 or 1 as a < b, a = b, a > b.
function compare(a, b) {
    const sa = a.coef === 0n ? 0 : a.neg ? -1 : 1;
    const sb = b.coef === 0n ? 0 : b.neg ? -1 : 1;
    if (sa !== sb) return sa < sb ? -1 : 1;
    if (sa === 0) return 0;
    // magnitudes: by the position of the leading digit, then digit by digit
    const ta = a.exp + BigInt(a.digits), tb = b.exp + BigInt(b.digits);
    let mag;
    if (ta !== tb) mag = ta < tb ? -1 : 1;
    else {
        const e = a.exp < b.exp ? a.exp : b.exp;
        const ca = a.coef * 10n ** (a.exp - e), cb = b.coef * 10n ** (b.exp - e);
        mag = ca === cb ? 0 : ca < cb ? -1 : 1;
    }
    return sa * mag;
}
function powMod(base, exp, mod) {
    let r = 1n % mod;
    for (base %= mod; exp > 0n; exp >>= 1n, base = (base * base) % mod) if (exp & 1n) r = (r * base) % mod;
    return r;
}
// v / d is an integer (d > 0).
function isMultipleOf(v, d) {
    if (v.coef === 0n) return true;
    const k = v.exp - d.exp;
    // k < 0: v.coef has no factor 10, so it is no multiple of d.coef * 10^-k
    return k >= 0n && ((v.coef % d.coef) * powMod(10n, k, d.coef)) % d.coef === 0n;
}

// A JSON text with numbers as Decimal and objects as Map (every key its own, "__proto__" too).
function parseExact(text) {
    let i = 0;
    const ws = () => {
        while (i < text.length && " \t\r\n".includes(text[i])) ++i;
    };
    const string = () => {
        const start = i++;
        while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        return JSON.parse(text.slice(start, ++i));
    };
    const value = () => {
        ws();
        const c = text[i];
        if (c === "{" || c === "[") {
            ++i;
            const out = c === "{" ? new Map() : [];
            ws();
            if (text[i] === (c === "{" ? "}" : "]")) return ++i, out;
            for (;;) {
                ws();
                if (c === "{") {
                    const k = string();
                    ws();
                    ++i; // :
                    out.set(k, value());
                } else {
                    out.push(value());
                }
                ws();
                if (text[i++] !== ",") return out;
            }
        }
        if (c === '"') return string();
        const literal = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
        literal.lastIndex = i;
        const m = literal.exec(text)[0];
        i += m.length;
        return /^[tfn]/.test(m) ? JSON.parse(m) : new Decimal(m);
    };
    const v = value();
    ws();
    if (i !== text.length) throw new Error(`reader_agree: not one JSON value: ${text}`);
    return v;
}
const toPlain = (v) =>
    v instanceof Decimal ? Number(v.text)
    : Array.isArray(v) ? v.map(toPlain)
    : v instanceof Map ? [...v].reduce((o, [k, e]) => (put(o, k, toPlain(e)), o), {})
    : v;
// Equal keys exactly for equal JSON values (1 = 1.0 = 1e0, key order irrelevant).
const valueKey = (v) =>
    v instanceof Decimal ? v.key()
    : Array.isArray(v) ? `[${v.map(valueKey).join(",")}]`
    : v instanceof Map ? `{${[...v].map(([k, e]) => `${JSON.stringify(k)}:${valueKey(e)}`).sort().join(",")}}`
    : JSON.stringify(v);
const hasNumber = (v) => v instanceof Decimal || (Array.isArray(v) ? v.some(hasNumber) : v instanceof Map && [...v.values()].some(hasNumber));

// The instance being validated (validation is synchronous), and its value at an instancePath.
let current;
function exactAt(pointer) {
    let node = current;
    if (pointer !== "")
        for (const part of pointer.slice(1).split("/")) {
            const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
            node = node instanceof Map ? node.get(key) : Array.isArray(node) ? node[Number(key)] : undefined;
        }
    if (node === undefined) throw new Error(`reader_agree: no value at ${pointer}`);
    return node;
}

const ajvOptions = { strict: true, allowUnionTypes: true, allErrors: true };
const ajv = addFormats(new Ajv2020(ajvOptions));
// Numbers stay numbers when JSON.parse makes them infinite (the keywords below see the text).
const ajvExact = addFormats(new Ajv2020({ ...ajvOptions, strictNumbers: false }));

// Keyword -> exact keyword, for numbers: holds(value, limit).
const EXACT_BOUNDS = {
    minimum: ["exactMinimum", (v, l) => compare(v, l) >= 0, ">="],
    maximum: ["exactMaximum", (v, l) => compare(v, l) <= 0, "<="],
    exclusiveMinimum: ["exactExclusiveMinimum", (v, l) => compare(v, l) > 0, ">"],
    exclusiveMaximum: ["exactExclusiveMaximum", (v, l) => compare(v, l) < 0, "<"],
    multipleOf: ["exactMultipleOf", isMultipleOf, "a multiple of"],
};
// The keyword an exact keyword stands for, in reports.
const ORIGINAL = { exactInteger: "type integer", exactUniqueItems: "uniqueItems", exactEnum: "enum", exactConst: "const" };
function exactKeyword(keyword, type, schemaType, test, message) {
    ajvExact.addKeyword({
        keyword, type, schemaType,
        compile(schema) {
            const check = test(schema);
            const f = (data, cxt) => {
                const v = exactAt(cxt.instancePath);
                if (check(v)) return true;
                f.errors = [{ keyword, message: message(schema), params: {} }];
                return false;
            };
            return f;
        },
    });
}
for (const [original, [keyword, holds, relation]] of Object.entries(EXACT_BOUNDS)) {
    ORIGINAL[keyword] = original;
    exactKeyword(keyword, "number", "string", (text) => {
        const limit = new Decimal(text);
        return (v) => holds(v, limit);
    }, (text) => `must be ${relation} ${text} (exactly)`);
}
exactKeyword("exactInteger", "number", "boolean", () => (v) => v.isInteger(), () => "must be integer (exactly)");
exactKeyword("exactUniqueItems", "array", "boolean", () => (a) => new Set(a.map(valueKey)).size === a.length,
             () => "must NOT have duplicate items (exactly)");
exactKeyword("exactEnum", undefined, "array", (keys) => (v) => keys.includes(valueKey(v)),
             () => "must be equal to one of the allowed values (exactly)");
exactKeyword("exactConst", undefined, "string", (key) => (v) => valueKey(v) === key, () => "must be equal to constant (exactly)");

// Keywords that hold subschemas, and keywords ajv decides faithfully (no number's value in
// them is compared with the instance's).
const ONE_SCHEMA = new Set(["additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems",
    "unevaluatedProperties"]);
const SCHEMA_LIST = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const FAITHFUL = new Set(["$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "title", "description", "default",
    "examples", "deprecated", "readOnly", "writeOnly", "required", "dependentRequired", "pattern", "minLength", "maxLength", "minItems",
    "maxItems", "minProperties", "maxProperties", "minContains", "maxContains", "contentEncoding", "contentMediaType"]);
const NUMBER_FORMATS = new Set(["int32", "int64", "float", "double"]);

// The schema (exact tree) with the exact keywords, as a plain object for ajv.
function exactSchema(s) {
    if (typeof s === "boolean") return s;
    if (!(s instanceof Map)) throw new Error(`reader_agree: not a schema: ${valueKey(s)}`);
    const out = {};
    for (const [k, v] of s) {
        if (EXACT_BOUNDS[k]) put(out, EXACT_BOUNDS[k][0], v.text);
        else if (k === "type") {
            const types = Array.isArray(v) ? v : [v];
            if (types.includes("integer")) {
                const t = [...new Set(types.map((x) => (x === "integer" ? "number" : x)))];
                put(out, "type", t.length === 1 ? t[0] : t);
                if (!types.includes("number")) put(out, "exactInteger", true);
            } else put(out, "type", v);
        } else if (k === "uniqueItems") {
            if (v === true) put(out, "exactUniqueItems", true);
        } else if (k === "enum" && hasNumber(v)) put(out, "exactEnum", v.map(valueKey));
        else if (k === "const" && hasNumber(v)) put(out, "exactConst", valueKey(v));
        else if (k === "enum" || k === "const") put(out, k, toPlain(v));
        else if (k === "format") {
            if (NUMBER_FORMATS.has(v)) throw new Error(`reader_agree: no exact form for the number format ${v}`);
            put(out, k, v);
        } else if (ONE_SCHEMA.has(k)) put(out, k, exactSchema(v));
        else if (SCHEMA_LIST.has(k)) put(out, k, v.map(exactSchema));
        else if (SCHEMA_MAP.has(k)) put(out, k, [...v].reduce((o, [name, sub]) => (put(o, name, exactSchema(sub)), o), {}));
        else if (FAITHFUL.has(k)) put(out, k, toPlain(v));
        else throw new Error(`reader_agree: no exact form for the keyword ${k}`);
    }
    return out;
}
const compileExact = (text) => ajvExact.compile(exactSchema(parseExact(text)));
function validateExact(validate, text) {
    current = parseExact(text);
    try {
        return validate(JSON.parse(text));
    } finally {
        current = undefined;
    }
}

// The exact keywords on cases whose answer is known: [schema, valid instances, invalid ones].
const SELF_CHECK = [
    ['{"type":"number","multipleOf":0.01}', ["0.07", "7e-2", "1e400", "-0", `5.${"0".repeat(70)}`],
        ["0.075", "1e-400", "0.0700000000000000000001"]],
    ['{"type":"number","multipleOf":2.5}', ["7.5e1", "-2.5", "0.25e1"], ["2.4999999999999999", "1"]],
    ['{"type":"number","multipleOf":3}', ["9223372036854775806", "3e100"], ["9223372036854775807.0", "9223372036854775808"]],
    ['{"type":"number","minimum":0,"exclusiveMinimum":0}', ["1e-400", "5e-324"], ["0", "-0.0", "-1e-400"]],
    ['{"type":"number","maximum":9007199254740992}', ["9.007199254740992e15", "-1e400"], ["9007199254740993", "9007199254740992.0000000000000001"]],
    ['{"type":"number","exclusiveMaximum":1e300}', ["9.999999999999999e299"], ["1e300", "1000e297", "1e400"]],
    ['{"type":"number","minimum":0.1234567890123456789}', ["0.12345678901234567890"], ["0.1234567890123456788"]],
    ['{"type":"number","maximum":-1e-3}', ["-0.001", "-1E-3", "-1e400"], ["-0.000999999999999999999", "0"]],
    ['{"type":"integer"}', ["1.0", "1e2", "1.5e1", "1e400", "-0.0", "10e-1"], ["1.5", "1e-400", "1.0000000000000000000001", '"1"']],
    ['{"type":"number"}', ["-1e400", "1e-400"], ["null"]],
    ['{"type":["integer","null"]}', ["null", "-0.0", "2E0"], ['"1"', "0.5"]],
    ['{"type":["integer","number"]}', ["0.5", "1"], ["true"]],
    ['{"type":"array","uniqueItems":true}', ["[9007199254740993,9007199254740992]", "[1e-400,0]", '["a","b",{"a":1},{"a":"1"}]', "[1,true]"],
        ["[1,1.0]", "[0,-0]", '[{"a":1,"b":[0]},{"b":[-0e3],"a":10e-1}]', '["a","a"]']],
    ['{"enum":[1,"a"]}', ["1.0", '"a"'], ["1.0000000000000000001", '"1"', "true"]],
    ['{"enum":["a",null]}', ["null", '"a"'], ['"b"', "0"]],
    ['{"const":9007199254740993}', ["9007199254740993.0"], ["9007199254740992"]],
    ['{"const":[9007199254740993]}', ["[9.007199254740993e15]"], ["[9007199254740992]"]],
    ['{"type":"object","properties":{"a/~b":{"type":"array","items":{"type":"integer","maximum":1}}}}', ['{"a/~b":[1,1.0,1e0,-1e400]}'],
        ['{"a/~b":[1,1.01]}', '{"a/~b":[1.0000000000000000001]}']],
    ['{"type":"object","additionalProperties":{"anyOf":[{"type":"null"},{"type":"number","multipleOf":0.1}]}}',
        ['{"__proto__":0.3,"x":null}'], ['{"__proto__":0.35}', '{"~":0.30000000000000000001}']],
];
for (const [schema, valid, invalid] of SELF_CHECK) {
    const validate = compileExact(schema);
    for (const [instances, expected] of [[valid, true], [invalid, false]])
        for (const instance of instances)
            if (validateExact(validate, instance) !== expected) {
                console.error(`reader_agree: the exact reference says ${!expected} for ${instance} against ${schema}`);
                process.exit(2);
            }
}

// ---- build the cases, ask ajv, the exact reference and agentry --------------------------------

const types = runHelper(["schemas"], "").map((line) => {
    const tab = line.indexOf("\t");
    const name = line.slice(0, tab);
    const text = line.slice(tab + 1);
    let validate, exact;
    try {
        validate = ajv.compile(JSON.parse(text));
        exact = compileExact(text);
    } catch (e) {
        console.error(`reader_agree: ajv cannot compile the schema of ${name}: ${e.message}\n${text}`);
        process.exit(2);
    }
    return { name, text, schema: parseKeepingNumbers(text), validate, exact };
});

// Every string and key a sequence of Unicode scalar values (no lone surrogate).
const loneSurrogate = /\p{Surrogate}/u; // with the u flag, a pair is one code point and does not match
function wellFormed(v) {
    if (typeof v === "string") return !loneSurrogate.test(v);
    if (Array.isArray(v)) return v.every(wellFormed);
    if (isObject(v)) return Object.keys(v).every((k) => !loneSurrogate.test(k) && wellFormed(v[k]));
    return true;
}

const cases = []; // { type, text }
for (const type of types) {
    const g = new Generator(type.schema);
    const seen = new Set();
    for (let attempts = 0; seen.size < perType && attempts < perType * 40; ++attempts) {
        const mutations = weighted([[25, 0], [60, 1], [15, int(2, 3)]]);
        const text = serialize(g.instance(mutations));
        if (text === undefined || seen.has(text) || !wellFormed(JSON.parse(text))) continue;
        seen.add(text);
        cases.push({ type, text });
    }
}

const input = cases.map(({ type, text }) => `${type.name}\t${text}\n`).join("");
const verdicts = runHelper(["check"], input);
if (verdicts.length !== cases.length || verdicts.some((line) => line !== "0" && line !== "1")) {
    console.error(`reader_agree: expected ${cases.length} lines of 0 or 1 from ${helper}, got ${verdicts.length}`);
    process.exit(2);
}

// Errors as "pointer keyword: message", an exact keyword under the name of the one it replaces;
// `numeric` for those on a number's value.
const NUMERIC = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "enum", "const"]);
const errorsOf = (validate) => (validate.errors ?? []).map((e) => {
    const keyword = ORIGINAL[e.keyword] ?? e.keyword;
    const numeric = e.keyword in ORIGINAL || NUMERIC.has(keyword) || (keyword === "type" && /number|integer/.test(String(e.params?.type)));
    return { keyword, numeric, text: `${e.instancePath || "/"} ${keyword}: ${e.message}` };
});
const texts = (errors) => errors.map((e) => e.text);
// I-JSON (RFC 7493): agentry refuses a number that a double cannot hold (it rounds to
// Infinity) anywhere, also in a free-form value, where the schema alone would accept it.
// The first such number's text, outside strings, or undefined.
function numberBeyondDouble(text) {
    for (let i = 0; i < text.length;) {
        const ch = text[i];
        if (ch === '"') {
            for (++i; i < text.length && text[i] !== '"'; ++i) if (text[i] === "\\") ++i;
            ++i;
            continue;
        }
        const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
        if ((ch === "-" || (ch >= "0" && ch <= "9")) && m) {
            if (!Number.isFinite(Number(m[0]))) return m[0];
            i += m[0].length;
            continue;
        }
        ++i;
    }
    return undefined;
}
const stats = new Map(types.map((t) => [t.name, { checked: 0, valid: 0, vsAjv: 0, vsExact: 0 }]));
const vsAjv = []; // the reader's verdict differs from ajv's
const vsExact = []; // the reader's verdict differs from the exact reference's
cases.forEach((c, i) => {
    let ajvOk, exactOk;
    try {
        ajvOk = c.type.validate(JSON.parse(c.text));
        c.ajvErrors = errorsOf(c.type.validate);
        exactOk = validateExact(c.type.exact, c.text);
        c.exactErrors = errorsOf(c.type.exact);
        const beyond = exactOk ? numberBeyondDouble(c.text) : undefined;
        if (beyond !== undefined) {
            exactOk = false;
            c.exactErrors = [{ keyword: "I-JSON number range", numeric: true, text: `${beyond} is beyond the range of a double (I-JSON)` }];
        }
    } catch (e) {
        console.error(`reader_agree: ajv failed on ${c.type.name} ${c.text}: ${e.stack}`);
        process.exit(2);
    }
    Object.assign(c, { ajvOk, exactOk, ours: verdicts[i] === "1" });
    const st = stats.get(c.type.name);
    st.checked++;
    if (exactOk) st.valid++;
    if (ajvOk !== c.ours) st.vsAjv++, vsAjv.push(c);
    if (exactOk !== c.ours) st.vsExact++, vsExact.push(c);
});

// The reader's own errors, for the disagreements only.
const disagreeing = [...new Set([...vsAjv, ...vsExact])];
if (disagreeing.length) {
    const explained = runHelper(["explain"], disagreeing.map(({ type, text }) => `${type.name}\t${text}\n`).join(""));
    disagreeing.forEach((d, i) => {
        const line = explained[i] ?? "";
        d.ourErrors = line.slice(line.indexOf("\t") + 1);
    });
}
// READER_AGREE_DUMP=file writes them there, one JSON object per line.
if (process.env.READER_AGREE_DUMP)
    writeFileSync(process.env.READER_AGREE_DUMP, disagreeing.map((d) => JSON.stringify({ type: d.type.name, text: d.text,
        agentry: d.ours, agentryErrors: d.ourErrors, ajv: d.ajvOk, ajvErrors: texts(d.ajvErrors), exact: d.exactOk,
        exactErrors: texts(d.exactErrors) }) + "\n").join(""));

for (const t of types) {
    const { checked, valid, vsAjv: a, vsExact: e } = stats.get(t.name);
    console.log(`  ${t.name.padEnd(20)} ${String(checked).padStart(6)} instances, ${String(valid).padStart(5)} valid, ` +
                `${String(a).padStart(3)} disagreements with ajv, ${e} with the exact reference`);
}

// A disagreement with ajv is explained when the exact reference differs from ajv there: then
// the keywords on which they differ are the cause.
const explainedByExact = vsAjv.filter((d) => d.exactOk !== d.ajvOk);
const numericErrors = (d) => (d.ajvOk ? d.exactErrors : d.ajvErrors).filter((e) => e.numeric);
console.log(`reader vs ajv: ${cases.length} instances, ${vsAjv.length} disagreements (${explainedByExact.length} of them where ajv's double ` +
            `arithmetic differs from the exact value)`);
const causes = new Map();
for (const d of explainedByExact) {
    const keywords = [...new Set(numericErrors(d).map((e) => e.keyword))].sort().join(", ");
    const cause = d.ajvOk ? `ajv accepts, the exact value fails ${keywords}` : `ajv rejects on ${keywords}, the exact value passes`;
    if (!causes.has(cause)) causes.set(cause, []);
    causes.get(cause).push(d);
}
for (const [cause, list] of [...causes].sort((a, b) => b[1].length - a[1].length)) {
    const d = list[0];
    const text = d.text.length > 160 ? d.text.slice(0, 160) + "..." : d.text;
    console.log(`  ${String(list.length).padStart(5)}  ${cause}\n         e.g. ${d.type.name} ${text}` +
                `\n           (${numericErrors(d)[0]?.text})`);
}
const unexplained = vsAjv.filter((d) => d.exactOk === d.ajvOk);
if (unexplained.length) console.log(`  ${String(unexplained.length).padStart(5)}  where the exact reference agrees with ajv (failures)`);
console.log(`reader vs exact reference (ajv + exact numeric keywords): ${cases.length} instances, ${vsExact.length} disagreements`);

const failures = [...new Set([...vsExact, ...unexplained])];
if (failures.length === 0) process.exit(0);
console.log("first disagreements:");
for (const d of failures.slice(0, 20)) {
    console.log(`  ${d.type.name} ${d.text}`);
    console.log(`    agentry ${d.ours ? "accepts" : `rejects: ${d.ourErrors}`}`);
    console.log(`    exact reference ${d.exactOk ? "accepts" : `rejects: ${texts(d.exactErrors).join("; ")}`}`);
    console.log(`    ajv ${d.ajvOk ? "accepts" : `rejects: ${texts(d.ajvErrors).join("; ")}`}`);
}
if (failures.length > 20) console.log(`  ... and ${failures.length - 20} more`);
process.exit(1);
