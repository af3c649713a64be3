// Differential check of agentry's reader against ajv: for every type reader_check knows, the
// reader's verdict (agentry::json::read<T>(text).ok()) must equal ajv's verdict on the same text
// for agentry::json_schema<T>() (JSON Schema 2020-12, Ajv2020 strict + ajv-formats).
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
// (so that "1.0" or "1e400" reach both sides). ajv validates JSON.parse(text); agentry reads text.
// Texts never hold duplicate keys or lone surrogates (the reader rejects those; JSON.parse
// cannot show them to ajv).
// Output: per-type counts, "reader vs ajv: N instances, M disagreements", the disagreements
// grouped by cause (letters A-P; a cause the classifier does not know is printed as "other"),
// and the first 20 disagreements with both verdicts and both sides' errors.
// READER_AGREE_DUMP=<file> writes every disagreement to <file> as JSON lines.
// Exit status: 0 all verdicts agree, 1 some disagree, 2 usage or helper failure, 77 skipped
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

// ---- causes of disagreements ----------------------------------------------------------------

// Number literals of an instance text (strings skipped).
const NUMBER_LITERAL = /("(?:[^"\\]|\\.)*")|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
const numbersIn = (text) => [...text.matchAll(NUMBER_LITERAL)].filter((m) => m[2] !== undefined).map((m) => m[2]);

// The literal text of the number at a JSON Pointer of an instance text, if a number is there.
function numberTextAt(text, pointer) {
    // every number becomes {"__number": its text}
    let node = JSON.parse(text.replace(NUMBER_LITERAL, (m, str, num) => (str !== undefined ? str : `{"__number":"${num}"}`)));
    const parts = pointer === "" || pointer === "/" ? [] : pointer.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    for (const part of parts) {
        if (node === null || typeof node !== "object" || node.__number !== undefined) return undefined;
        node = Array.isArray(node) ? node[Number(part)] : Object.prototype.hasOwnProperty.call(node, part) ? node[part] : undefined;
    }
    return node?.__number;
}

// Exact decimal arithmetic on JSON number text.
function isMultiple(valueText, divisorText) {
    const v = toDecimal(valueText);
    const m = toDecimal(divisorText);
    if (v.sig === 0n) return true;
    const e = Math.min(v.exp, m.exp);
    const scale = (d) => d.sig * 10n ** BigInt(d.exp - e);
    return scale(v) % scale(m) === 0n;
}
// Whether the text denotes exactly the double JSON.parse gives (shortest round trip compared
// as decimals).
function exactInDouble(text) {
    const x = Number(text);
    if (!Number.isFinite(x)) return false;
    if (x === 0) return toDecimal(text).sig === 0n;
    const a = toDecimal(text);
    const b = toDecimal(x.toExponential(16).replace("e+", "e"));
    const e = Math.min(a.exp, b.exp);
    return a.sig * 10n ** BigInt(a.exp - e) === b.sig * 10n ** BigInt(b.exp - e) || String(x) === text;
}

// The exact value of JSON number text is an integer.
function integerValued(text) {
    const d = toDecimal(text);
    if (d.exp >= 0) return true;
    return d.sig % 10n ** BigInt(-d.exp) === 0n;
}
const significantDigits = (text) => toDecimal(text).sig.toString().replace(/^-/, "").replace(/0+$/, "").length;

// Whether JSON number text denotes exactly the double JSON.parse gives (no rounding).
function exactDouble(text) {
    const x = Number(text);
    if (!Number.isFinite(x)) return false;
    const { sig, exp } = toDecimal(text);
    if (x === 0) return sig === 0n;
    // x = m * 2^e exactly, with m an integer.
    let m = x, e = 0;
    while (!Number.isInteger(m)) { m *= 2; e -= 1; }
    let left = sig, right = BigInt(m);
    if (exp >= 0) left *= 10n ** BigInt(exp); else right *= 10n ** BigInt(-exp);
    if (e >= 0) right *= 2n ** BigInt(e); else left *= 2n ** BigInt(-e);
    return left === right;
}

// Disagreements that come from ajv's double arithmetic, where agentry decides on the exact
// decimal value (JSON Schema's numbers are decimals): these are expected and reported.
const intentional = new Set(["H", "I", "J", "L", "M", "P", "Q"]);

function classify(d) {
    const first = d.ajvOk ? d.ourErrors.split(" | ")[0] : d.ajvErrors.find((e) => !/ anyOf: /.test(e)) ?? d.ajvErrors[0];
    const pointer = d.ajvOk ? (first.startsWith("/") ? first.slice(0, first.indexOf(": ")) : "") : first.slice(0, first.indexOf(" "));
    const num = numberTextAt(d.text, pointer === "/" ? "" : pointer);
    const value = num === undefined ? undefined : Number(num);
    const beyond53 = num !== undefined && Math.abs(value) >= 2 ** 53;
    if (d.ajvOk && /must not be null; leave the property out/.test(first))
        return "A. null for an optional member whose schema admits null (std::optional<raw_json>, std::optional<std::variant<std::monostate, ...>>): agentry rejects, ajv accepts";
    if (!d.ajvOk && (num !== undefined ? !Number.isFinite(value) : numbersIn(d.text).some((t) => !Number.isFinite(Number(t)))))
        return "B. a number beyond the double range (1e400) read as 0 by an integer member: ajv rejects (Infinity is not an integer), agentry accepts";
    if (d.ajvOk && /too large for a float/.test(first))
        return "C. float member: a finite double beyond the float range rejected by agentry; the schema says only {\"type\":\"number\"}";
    if (d.ajvOk && num !== undefined && !/^-?\d+$/.test(num) && integerValued(num) && beyond53 && /must be (at most|at least)/.test(first) &&
        !/multiple/.test(first))
        return "D. an integer written with a fraction or exponent (9007199254740995.0, 9.223372036854775807e18) beyond 2^53: agentry's read_integer rounds it through double, then compares exactly";
    if (numbersIn(d.text).some((t) => !exactDouble(t)) && !/multiple/i.test(first))
        return "Q. a number text that no double holds exactly (9.0000000000000001, 1e-400, 9007199254740993): ajv decides on the rounded double, agentry on the exact value (intentional)";
    if (/uniqueItems|items must be unique|repeats an earlier item/.test(first)) {
        if (/\/anything/.test(pointer)) return "F. uniqueItems on agentry::raw_json items: agentry compares the text, JSON Schema compares values (1 = 1.0, key order)";
        if (/\/items/.test(pointer)) return "G. uniqueItems on a struct with a defaulted optional member: agentry compares the C++ values ({\"sku\":\"a\"} = {\"sku\":\"a\",\"qty\":1})";
        return `uniqueItems: other (${d.type.name}: ${first})`;
    }
    if (/multiple/i.test(first)) {
        const divisor = findKeywordText(d.type.schema, pointer, "multipleOf");
        if (num !== undefined && divisor !== undefined) {
            const exact = isMultiple(num, divisor);
            if (beyond53 && /^-?\d+$/.test(num))
                return "H. multipleOf on an integer beyond 2^53: ajv divides the nearest double, agentry is exact (intentional)";
            if (!d.ajvOk && exact && Math.abs(value / Number(divisor)) >= 1e21)
                return "I. multipleOf with a quotient of 1e21 or more: ajv's parseInt(quotient) reads \"1e+21\" as 1 (ajv defect; agentry right)";
            if (!d.ajvOk && exact)
                return "J. multipleOf with a decimal divisor: ajv divides in binary floating point, agentry is decimal-exact (intentional)";
            if (!d.ajvOk && !exact && significantDigits(num) > 19)
                return "K. multipleOf on a number text of more than 19 significant digits: agentry falls back to double division, where every large quotient is an integer";
            if (d.ajvOk && !exact && value === 0)
                return "L. multipleOf on a number that underflows to 0 (1e-400): ajv sees 0, agentry checks the exact text (its bounds see 0)";
            if (d.ajvOk && !exact)
                return "M. multipleOf on a number text that is not a multiple but whose nearest double passes ajv's division (more digits than a double holds): agentry is exact (intentional)";
        }
        return `multipleOf: other (${d.type.name}: ${first})`;
    }
    if (d.type.name === "float_edges" && /^\/(at_most_tenth|above_tenth|unit)/.test(pointer))
        return "N. float member with a bound: agentry rounds the value to float before comparing (0.1f > 0.1)";
    if (d.type.name === "double_edges")
        return "O. double bound converted inexactly by number_literal::to_double (1e100, 1e-100, 1e300, 0.1234567890123456789): agentry compares with another double than the schema's";
    if (beyond53)
        return "P. integer bound or value beyond 2^53: ajv compares doubles, agentry is exact (intentional)";
    return `other (${d.type.name}: ${first})`;
}
// The literal text of `keyword` in the schema node that applies at `pointer` (properties,
// items and additionalProperties followed; anyOf alternatives searched).
function findKeywordText(schema, pointer, keyword) {
    const parts = pointer === "" || pointer === "/" ? [] : pointer.slice(1).split("/");
    const walk = (s, i) => {
        if (!s || typeof s !== "object") return undefined;
        if (s.anyOf) for (const alt of s.anyOf) {
            const r = walk(alt, i);
            if (r !== undefined) return r;
        }
        if (i === parts.length) return s.numText?.[keyword];
        const part = parts[i];
        if (s.properties && s.properties[part]) return walk(s.properties[part], i + 1);
        if (s.items) return walk(s.items, i + 1);
        if (isObject(s.additionalProperties)) return walk(s.additionalProperties, i + 1);
        return undefined;
    };
    return walk(schema, 0);
}

// ---- build the cases, ask ajv, ask agentry ------------------------------------------------

const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));
const types = runHelper(["schemas"], "").map((line) => {
    const tab = line.indexOf("\t");
    const name = line.slice(0, tab);
    const text = line.slice(tab + 1);
    let validate;
    try {
        validate = ajv.compile(JSON.parse(text));
    } catch (e) {
        console.error(`reader_agree: ajv cannot compile the schema of ${name}: ${e.message}\n${text}`);
        process.exit(2);
    }
    return { name, text, schema: parseKeepingNumbers(text), validate };
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

const stats = new Map(types.map((t) => [t.name, { checked: 0, valid: 0, disagree: 0 }]));
const disagreements = [];
const ajvThrew = [];
cases.forEach((c, i) => {
    const data = JSON.parse(c.text);
    let ajvOk;
    try {
        ajvOk = c.type.validate(data);
    } catch (e) {
        ajvThrew.push(`${c.type.name} ${c.text}: ${e.message}`);
        return;
    }
    const ours = verdicts[i] === "1";
    const st = stats.get(c.type.name);
    st.checked++;
    if (ajvOk) st.valid++;
    if (ajvOk !== ours) {
        st.disagree++;
        disagreements.push({ ...c, ajvOk, ours, ajvErrors: ajvOk ? [] : c.type.validate.errors.map((e) => `${e.instancePath || "/"} ${e.keyword}: ${e.message}`) });
    }
});

// The reader's own errors, for the disagreements only.
if (disagreements.length) {
    const explained = runHelper(["explain"], disagreements.map(({ type, text }) => `${type.name}\t${text}\n`).join(""));
    disagreements.forEach((d, i) => {
        const line = explained[i] ?? "";
        d.ourErrors = line.slice(line.indexOf("\t") + 1);
    });
}

for (const t of types) {
    const { checked, valid, disagree } = stats.get(t.name);
    console.log(`  ${t.name.padEnd(20)} ${String(checked).padStart(6)} instances, ${String(valid).padStart(5)} valid for ajv, ${disagree} disagreements`);
}

console.log(`reader vs ajv: ${cases.length - ajvThrew.length} instances, ${disagreements.length} disagreements`);
if (disagreements.length === 0) process.exit(0);

// READER_AGREE_DUMP=file writes every disagreement there, one JSON object per line.
if (process.env.READER_AGREE_DUMP)
    writeFileSync(process.env.READER_AGREE_DUMP, disagreements.map((d) => JSON.stringify({ type: d.type.name, text: d.text, ajv: d.ajvOk,
        ajvErrors: d.ajvErrors, agentry: d.ours, agentryErrors: d.ourErrors })).join("\n") + "\n");
console.log("disagreements by cause:");
const causes = new Map();
for (const d of disagreements) {
    const cause = classify(d);
    if (!causes.has(cause)) causes.set(cause, []);
    causes.get(cause).push(d);
}
for (const [cause, list] of [...causes].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${String(list.length).padStart(5)}  ${cause}`);
    for (const d of list.slice(0, 3)) {
        const where = d.ajvOk ? d.ourErrors.split(" | ")[0] : d.ajvErrors[0];
        console.log(`         ${d.type.name} ${d.text.length > 160 ? d.text.slice(0, 160) + "..." : d.text}\n           (${d.ajvOk ? "ajv accepts; agentry: " : "agentry accepts; ajv: "}${where})`);
    }
}
const unexpected = disagreements.filter((d) => !intentional.has(classify(d)[0]));
console.log(`reader vs ajv: ${disagreements.length - unexpected.length} disagreements from ajv's double arithmetic ` +
            `(causes ${[...intentional].join(", ")}: agentry exact), ${unexpected.length} unexpected`);
if (unexpected.length === 0) process.exit(0);
console.log("first unexpected disagreements:");
for (const d of unexpected.slice(0, 20)) {
    console.log(`  ${d.type.name} ${d.text}`);
    console.log(`    ajv ${d.ajvOk ? "accepts" : `rejects: ${d.ajvErrors.join("; ")}`}`);
    console.log(`    agentry ${d.ours ? "accepts" : `rejects: ${d.ourErrors}`}`);
}
if (unexpected.length > 20) console.log(`  ... and ${unexpected.length - 20} more`);
process.exit(1);
