// SPDX-License-Identifier: BSL-1.0
// Differential check of agentry's string formats against ajv + ajv-formats ("full" mode).
//
//   node formats_agree.mjs <path to formats_check> [strings per format, default 4000] [seed]
//
// For every format agentry supports it generates strings from a seeded PRNG (so every run checks
// the same strings): valid samples, near-misses at the boundaries (Feb 29, 23:59:60, octet 256,
// 63-character labels, ...), mutations of those (inserted, deleted, replaced, duplicated
// characters; printable and control ASCII, and non-ASCII including Unicode white space and
// characters whose case folds to ASCII), random strings and the samples of the other formats.
// ajv's verdict comes from ajv.compile({type: "string", format}); agentry's from the helper,
// which reads "format<TAB>JSON string" lines and prints 1 or 0 per line.
// Strings are sequences of Unicode scalar values (no lone surrogates: agentry's input is UTF-8).
// Exit status: 0 all verdicts agree, 1 some disagree, 2 usage or helper failure, 77 skipped
// (ajv not installed).

import { spawnSync } from "node:child_process";
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
    console.error("usage: node formats_agree.mjs <path to formats_check> [strings per format] [seed]");
    process.exit(2);
}
const helper = process.argv[2];
const perFormat = Number(process.argv[3] ?? 4000);
const seed = Number(process.argv[4] ?? 0x5eed2024);
if (!Number.isInteger(perFormat) || perFormat < 1 || !Number.isInteger(seed)) {
    console.error("formats_agree: the count and the seed must be integers, the count positive");
    process.exit(2);
}

const FORMATS = ["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"];
const ajv = addFormats(new Ajv2020({ strict: true }));
const validators = Object.fromEntries(FORMATS.map((f) => [f, ajv.compile({ type: "string", format: f })]));

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
const repeat = (n, f) => Array.from({ length: n }, f).join("");
const pad = (n, width) => String(n).padStart(width, "0");
const randomCase = (s) => (chance(0.3) ? [...s].map((c) => (chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join("") : s);

const DIGITS = "0123456789";
const HEX = "0123456789abcdefABCDEF";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const ALNUM = LOWER + LOWER.toUpperCase() + DIGITS;
const fromSet = (set, n) => repeat(n, () => pick(set));

// Non-ASCII characters that are easy to get wrong: JavaScript white space (a date-time
// separator), look-alikes and characters whose upper or lower case is ASCII (ignored by ajv's
// non-unicode `i` flag), other scripts, and characters outside the BMP.
const NON_ASCII = [
    "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff",
    "\u180e", "\u200b", "\u0085", "\u00ad", "\u017f", "\u0131", "\u0130", "\u212a", "\u212b", "\u00e9", "\u00c9",
    "\u00df", "\u00ff", "\u0660", "\u0661", "\u06f1", "\uff10", "\uff11", "\uff21", "\uff41", "\u2024", "\uff0e",
    "\u3002", "\uff1a", "\u2010", "\u2212", "\uff20", "\u0442", "\u0422", "\u0437", "\u4e2d", "\u00b2", "\u00b9",
    "\u2070", "\ufffd", "\u{1f600}", "\u{10000}", "\u{1d7ce}", "\u{e0041}", "\u{10ffff}",
];
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(["\x7f"]);

// ---- valid samples and boundary values per format -----------------------------------------

function year() {
    return pick([0, 1, 4, 100, 400, 1600, 1700, 1900, 1999, 2000, 2004, 2023, 2024, 2100, 2400, 9996, 9999, int(0, 9999)]);
}
function date() {
    const y = year();
    const m = chance(0.85) ? int(1, 12) : pick([0, 13, 19, 99]);
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 31;
    const d = chance(0.6) ? int(1, days) : pick([0, days, days + 1, 28, 29, 30, 31, 32, 39, 99]);
    return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}
function fraction() {
    if (chance(0.55)) return "";
    return "." + pick([
        () => fromSet(DIGITS, int(1, 9)),
        () => "9".repeat(int(13, 20)),
        () => "999999999999996447286321199499070644378662109375",
        () => "999999999999996447286321199499070644378662109374",
        () => "9999999999999964472863211994990706443786621093749" + fromSet(DIGITS, int(0, 3)),
        () => "99999999999999644728632119949907064437866210937500001",
        () => "99999999999999644" + fromSet(DIGITS, int(0, 30)),
        () => "0".repeat(int(1, 30)) + fromSet(DIGITS, int(0, 3)),
    ])();
}
function offset() {
    const r = random();
    if (r < 0.25) return pick(["Z", "z"]);
    if (r < 0.3) return "";
    const h = chance(0.8) ? int(0, 23) : pick([24, 25, 99]);
    const m = chance(0.8) ? pick([0, 30, 45, int(0, 59)]) : pick([59, 60, 99]);
    const sign = pick(["+", "-"]);
    return sign + pad(h, 2) + pick([`:${pad(m, 2)}`, pad(m, 2), "", `:${pad(m, 2)}`]);
}
function time() {
    if (chance(0.3)) {
        // leap-second territory: 23:59:60 in UTC, and ajv's arithmetic around it
        const h = pick([23, 22, 0, 24, int(0, 47)]);
        const m = pick([59, 0, 60, int(0, 99)]);
        const s = pick([59, 60, 61]);
        return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${fraction()}${offset()}`;
    }
    const h = chance(0.85) ? int(0, 23) : pick([24, 29, 99]);
    const m = chance(0.85) ? int(0, 59) : pick([60, 99]);
    const s = chance(0.85) ? int(0, 59) : pick([60, 61, 99]);
    return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${fraction()}${offset()}`;
}
function dateTime() {
    if (chance(0.4)) {
        // a valid date-time, the most common shape
        const frac = chance(0.3) ? "." + fromSet(DIGITS, int(1, 6)) : "";
        const off = chance(0.5) ? "Z" : `${pick(["+", "-"])}${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}`;
        return `${pad(int(0, 9999), 4)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}T` +
            `${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}:${pad(int(0, 59), 2)}${frac}${off}`;
    }
    const sep = chance(0.7) ? pick(["T", "t"]) : pick([" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2003",
        "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "\u180e", "\u200b", "\u0085", "_", "TT", "T ", ""]);
    return date() + sep + time();
}
function duration() {
    if (chance(0.15)) return "P" + (chance(0.9) ? String(int(0, 99)) : "") + pick(["W", "W", "w", "D", "WT1H"]);
    const num = () => (chance(0.9) ? String(int(0, 999)) : pick(["", "1.5", "0,5", "-1", "01"]));
    let s = "P";
    for (const d of ["Y", "M", "D"]) if (chance(0.4)) s += num() + d;
    if (chance(0.6)) {
        s += "T";
        for (const d of ["H", "M", "S"]) if (chance(0.45)) s += num() + d;
    }
    if (chance(0.1)) {
        // designators out of order or repeated
        const parts = s.slice(1).match(/\d*[A-Z]/g) ?? [];
        s = "P" + parts.sort(() => random() - 0.5).join("");
    }
    return chance(0.05) ? s.toLowerCase() : s;
}
const ATEXT = ALNUM + "!#$%&'*+/=?^_`{|}~-";
function label(maxLen) {
    const n = chance(0.8) ? int(1, 10) : pick([1, 2, 62, 63, 64, maxLen]);
    if (n === 1) return pick(ALNUM.split(""));
    let s = pick(ALNUM.split("")) + fromSet(ALNUM + "---", n - 2) + pick(ALNUM.split(""));
    if (chance(0.05)) s = "-" + s.slice(1);
    if (chance(0.05)) s = s.slice(0, -1) + "-";
    return s;
}
function email() {
    const atoms = repeat(1, () => "") + Array.from({ length: int(1, 3) }, () => fromSet(ATEXT, int(1, 8))).join(".");
    const labels = Array.from({ length: chance(0.1) ? 1 : int(2, 4) }, () => label(70));
    const local = chance(0.05) ? pick(['"quoted"', "a..b", ".a", "a.", ""]) : atoms;
    const domain = chance(0.05) ? pick(["[127.0.0.1]", "localhost", "a.b.", ".a.b", "a..b"]) : labels.join(".");
    return local + "@" + domain;
}
function hostname() {
    const r = random();
    if (r < 0.1) {
        // about 253 characters: four 63-character labels minus a few
        const total = pick([252, 253, 254, 255]);
        const labels = [];
        let left = total;
        while (left > 0) {
            const n = Math.min(63, left);
            labels.push(n === 1 ? "a" : "a" + fromSet(ALNUM, Math.max(0, n - 2)) + "z");
            left -= n + 1;
        }
        let s = labels.join(".").slice(0, total);
        if (s.endsWith(".") || s.endsWith("-")) s = s.slice(0, -1) + "x";
        return s + (chance(0.5) ? "." : "");
    }
    const s = Array.from({ length: int(1, 5) }, () => label(64)).join(".");
    return s + (chance(0.15) ? "." : "");
}
function octet() {
    return chance(0.85) ? String(int(0, 255)) : pick(["256", "300", "999", "00", "01", "001", "010", "0255", "1000", ""]);
}
function ipv4() {
    const n = chance(0.9) ? 4 : pick([3, 5]);
    return Array.from({ length: n }, octet).join(".");
}
function ipv6() {
    const group = () => (chance(0.95) ? fromSet(HEX, int(1, 4)) : pick(["", "00000", "12345", "g", "fffff"]));
    const withV4 = chance(0.25);
    const total = chance(0.85) ? 8 : pick([7, 9]);
    const groups = Array.from({ length: withV4 ? total - 2 : total }, group);
    let s;
    if (chance(0.6)) {
        // compress a run (possibly empty) of groups into "::"
        const start = int(0, groups.length);
        const len = int(0, groups.length - start);
        const head = groups.slice(0, start).join(":");
        const tail = groups.slice(start + len);
        const v4 = withV4 ? ipv4() : "";
        const rest = tail.concat(v4 ? [v4] : []).join(":");
        s = head + "::" + rest;
    } else {
        s = groups.concat(withV4 ? [ipv4()] : []).join(":");
    }
    if (chance(0.05)) s = pick([":", "", "%eth0", ":::"]) + s;
    if (chance(0.05)) s += pick([":", "%eth0", "/64", "::"]);
    return s;
}
function uuid() {
    const parts = [8, 4, 4, 4, 12].map((n) => fromSet(chance(0.5) ? "0123456789abcdef" : HEX, chance(0.95) ? n : n + pick([-1, 1])));
    const prefix = chance(0.3) ? randomCase(pick(["urn:uuid:", "urn:uuid:", "urn:", "uuid:", "urn:uuid:urn:uuid:"])) : "";
    const body = chance(0.05) ? parts.join("") : chance(0.05) ? `{${parts.join("-")}}` : parts.join("-");
    return prefix + body;
}
const UNRESERVED_SUB = ALNUM + "-._~!$&'()*+,;=";
const pct = () => (chance(0.85) ? "%" + fromSet(HEX, 2) : pick(["%", "%g0", "%0", "%%"]));
const uriRun = (set, n) => repeat(n, () => (chance(0.1) ? pct() : chance(0.03) ? pick([" ", "\"", "<", "\\", "^", "`", "{", "|", "[", "]", "#"]) : pick(set)));
function uriHost() {
    const r = random();
    if (r < 0.45) return uriRun(UNRESERVED_SUB, int(0, 12));
    if (r < 0.6) return Array.from({ length: 4 }, () => (chance(0.9) ? String(int(0, 255)) : pick(["256", "001", "0255"]))).join(".");
    if (r < 0.75) return `[${ipv6().replace(/%.*/, "")}]`;
    if (r < 0.85) return `[${pick(["::ffff:", "1:2:3:4:5:6:", "::", "1::", "::1:", "a:b::c:"])}${ipv4()}]`;
    if (r < 0.95) return `[${pick(["v", "V"])}${fromSet(HEX, int(0, 3))}.${uriRun(UNRESERVED_SUB + ":", int(0, 6))}]`;
    return pick(["[", "]", "[::1", "::1]", "[::1]]", "[[::1]]", "[fe80::1%25eth0]"]);
}
function uriPath(first) {
    const seg = () => uriRun(UNRESERVED_SUB + ":@", int(0, 8));
    return (first ? "" : "/") + Array.from({ length: int(0, 4) }, seg).join("/");
}
function uri() {
    const scheme = chance(0.95) ? pick(LOWER.split("")) + fromSet(ALNUM + "+-.", int(0, 8)) : pick(["", "1a", "+a", "a b", "-"]);
    const r = random();
    let hier;
    if (r < 0.5) {
        const userinfo = chance(0.25) ? uriRun(UNRESERVED_SUB + ":", int(0, 8)) + "@" : "";
        const port = chance(0.3) ? ":" + fromSet(DIGITS, int(0, 5)) + (chance(0.05) ? "x" : "") : "";
        hier = pick(["//", "//", "/", "///"]) + userinfo + uriHost() + port + (chance(0.7) ? "/" + uriPath(true) : "");
    } else if (r < 0.7) {
        hier = "/" + uriPath(true);
    } else if (r < 0.95) {
        hier = uriPath(true);
    } else {
        hier = "";
    }
    const query = chance(0.3) ? "?" + uriRun(UNRESERVED_SUB + ":@/?", int(0, 10)) : "";
    const fragment = chance(0.25) ? "#" + uriRun(UNRESERVED_SUB + ":@/?", int(0, 10)) : "";
    return scheme + ":" + hier + query + fragment;
}

const GENERATORS = { "date-time": dateTime, date, time, duration, email, hostname, ipv4, ipv6, uuid, uri };

// Hand-picked boundary cases, checked in addition to the generated ones.
const EDGES = {
    date: ["2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-02-29", "2100-02-29", "2400-02-29",
        "2024-04-31", "2024-12-31", "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "20240101", "+2024-01-01",
        "2024-01-01 ", " 2024-01-01", "2024-01-01T00:00:00Z", "9999-12-31", "2024/01/01", ""],
    time: ["23:59:60Z", "23:59:60+00:00", "23:59:60.5Z", "22:59:60-01:00", "00:59:60+01:00", "23:59:61Z", "23:58:60Z",
        "12:00:60Z", "00:00:60+00:01", "23:59:60-00:00", "30:59:59+07:00", "23:60:00Z", "24:00:00Z", "12:00:00",
        "12:00:00z", "12:00:00+0530", "12:00:00+05", "12:00:00+05:3", "12:00:00+24:00", "12:00:00+23:60",
        "12:00:00.Z", "12:00:00.123456789Z", "12:00Z", "1:00:00Z", "12:00:00 Z", "23:59:59.9999999999999999Z",
        "12:00:59.9999999999999999Z", "23:59:60.9999999999999999Z", "00:00:00-23:59", "23:59:60-23:59", ""],
    "date-time": ["2024-02-29T23:59:60Z", "2023-02-29T00:00:00Z", "2024-01-01t00:00:00z", "2024-01-01 00:00:00Z",
        "2024-01-01\u00a000:00:00Z", "2024-01-01\u300000:00:00Z", "2024-01-01\u180e00:00:00Z", "2024-01-01T00:00:00",
        "2024-01-01TT00:00:00Z", "2024-01-01", "T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00+01:00",
        "2024-01-01T00:00:00.1+0100", "2024-01-01T23:59:60.999Z", ""],
    duration: ["P1Y", "P1M", "P1D", "PT1H", "PT1M", "PT1S", "P1W", "P1Y2M3DT4H5M6S", "P", "PT", "P1", "PT1", "P1DT",
        "P1Y1W", "P1W1D", "PW", "P1.5Y", "P0D", "PT0S", "p1y", "P1Y2Y", "P1D1M", "PT1S1M", "P1H", "PT1D",
        "-P1D", "P-1D", " P1D", "P1D ", "PT1H1S", "P10000000000000000000000Y", ""],
    email: ["a@b.co", "a@b", "a.b@c.d", ".a@b.c", "a.@b.c", "a..b@c.d", "a@b..c", "a@-b.c", "a@b-.c", "a@b.c.",
        "a@b.c-d", "a@@b.c", "@b.c", "a@", "\"a\"@b.c", "a@[127.0.0.1]", "A@B.C", "!#$%&'*+/=?^_`{|}~-@x.yz",
        "a@1.2", "a b@c.d", "a@b_c.d", "\u00e9@b.c", "a@\u00e9.c", ""],
    hostname: ["a", "a.", "a..", ".", ".a", "-a", "a-", "a-b", "a--b", "1", "1.2.3.4", "a_b", "a b", "x".repeat(63),
        "x".repeat(64), `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`,
        `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}.`,
        `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`,
        `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}.`, "\u212aelvin", "stra\u00dfe", ""],
    ipv4: ["0.0.0.0", "255.255.255.255", "256.0.0.0", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "1.2.3.4.",
        ".1.2.3.4", "1..2.3", "1.2.3.4 ", "0x1.2.3.4", "1.2.3.\u0661", "\uff11.2.3.4", ""],
    ipv6: ["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7", "1::2::3", ":::", "1:::2", ":1::", "1::2:", "::ffff:1.2.3.4", "::ffff:01.2.3.4",
        "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5::1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "::1:2:3:4:5:1.2.3.4",
        "::1:2:3:4:5:6:1.2.3.4", "1.2.3.4", "::1.2.3.4:5", "FFFF::ffff", "12345::", "fe80::1%eth0", "g::", ""],
    uuid: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
        "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
        "urn:uuid:", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
        "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-4266141740000",
        "g23e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000", ""],
    uri: ["http://example.com", "http://example.com/a/b?c=d#e", "foo:", "foo:?q", "foo:#f", "foo:/", "foo://",
        "foo:///", "foo:a", "foo:/a", "foo://a@b:1/c", "foo:/host:80/p", "urn:isbn:0451450523", "mailto:a@b.c",
        "http://[::1]:80/", "http://[v1.x]/", "http://[V1F.a:b]/", "http://[v.x]/", "http://[vg.x]/",
        "http://[::1%25eth0]/", "http://[1.2.3.4]/", "http://001.002.003.004/", "http://a b/", "http://a%2/",
        "http://a%20b/", "http://a/%zz", "1http://a", "//example.com", "/a/b", "a/b", "http:x y", "http://a:b:c/",
        "http://a:80x/", "http://@/", "http://a@b@c/", "http://[::1]x/", "http://a/b?c?d#e?f/g", "http://a#b#c",
        "http://\u00e9.com/", "HTTP://A.COM/", "a:\u017f", ""],
};

// Exhaustive grids over the numeric boundaries, checked in addition to the generated cases.
function grids() {
    const out = { date: [], time: [], "date-time": [] };
    for (const y of [0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 2100])
        for (let m = 0; m <= 13; ++m)
            for (let d = 0; d <= 32; ++d) out.date.push(`${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
    const offsets = ["Z", "+00:00", "-00:00", "+01:00", "-01:00", "+00:01", "-00:01", "+0001", "-01", "+07:00",
        "-07:30", "+23:59", "-23:59", "+24:00", "+00:60"];
    for (let h = 0; h <= 48; ++h)
        for (const m of [0, 1, 30, 58, 59, 60, 99])
            for (const s of ["00", "59", "59.5", "60", "60.999", "61"])
                for (const o of offsets) out.time.push(`${pad(h, 2)}:${pad(m, 2)}:${s}${o}`);
    for (const d of ["2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "2024-12-31"])
        for (const t of ["23:59:60Z", "00:59:60+01:00", "22:59:60-01:00", "23:59:59Z", "24:00:00Z"])
            for (const sep of ["T", "t", " ", "\u00a0", "\u3000", "_"]) out["date-time"].push(d + sep + t);
    return out;
}
const GRIDS = grids();

// Mutations: 1-3 edits of a string, on code points so that no lone surrogate appears.
function someChar(format) {
    const r = random();
    const own = GENERATORS[format]();
    if (r < 0.45 && own.length > 0) return pick([...own]);
    if (r < 0.75) return pick(PRINTABLE);
    if (r < 0.85) return pick(CONTROL);
    return pick(NON_ASCII);
}
function mutate(s, format) {
    const cps = [...s];
    for (let k = int(1, 3); k > 0; --k) {
        const at = int(0, cps.length);
        switch (int(0, 6)) {
        case 0: cps.splice(at, 0, someChar(format)); break;
        case 1: cps.splice(at, 1); break;
        case 2: cps.splice(at, 1, someChar(format)); break;
        case 3: cps.splice(at, 0, ...cps.slice(at, at + int(1, 4))); break; // duplicate a piece
        case 4: if (at + 1 < cps.length) [cps[at], cps[at + 1]] = [cps[at + 1], cps[at]]; break;
        case 5: cps.length = Math.min(cps.length, at); break; // truncate
        case 6: cps.splice(at, 1, randomCase(cps[at] ?? "")); break;
        }
    }
    return cps.join("");
}
function randomString() {
    const n = int(0, 24);
    return repeat(n, () => (chance(0.85) ? pick(PRINTABLE) : chance(0.5) ? pick(CONTROL) : pick(NON_ASCII)));
}

// ---- build the cases, ask ajv, ask agentry ------------------------------------------------

const cases = []; // [format, string]
for (const format of FORMATS) {
    const seen = new Set();
    const add = (s) => {
        if (!seen.has(s)) {
            seen.add(s);
            cases.push([format, s]);
        }
    };
    for (const s of EDGES[format]) add(s);
    for (const s of GRIDS[format] ?? []) add(s);
    for (const [other, list] of Object.entries(EDGES)) if (other !== format) for (const s of list) add(s);
    let attempts = 0;
    const target = seen.size + perFormat;
    while (seen.size < target && attempts++ < perFormat * 20) {
        const r = random();
        const gen = GENERATORS[format];
        if (r < 0.4) add(gen());
        else if (r < 0.85) add(mutate(gen(), format));
        else if (r < 0.95) add(chance(0.5) ? GENERATORS[pick(FORMATS)]() : mutate(GENERATORS[pick(FORMATS)](), format));
        else add(randomString());
    }
}

const expected = cases.map(([format, s]) => validators[format](s));

const input = cases.map(([format, s]) => `${format}\t${JSON.stringify(s)}\n`).join("");
const run = spawnSync(helper, [], { input, encoding: "utf8", maxBuffer: 1 << 30 });
if (run.error || run.status !== 0) {
    console.error(`formats_agree: ${helper} failed: ${run.error ?? `exit status ${run.status}`}\n${run.stderr ?? ""}`);
    process.exit(2);
}
const actual = run.stdout.split("\n").filter((line) => line !== "");
if (actual.length !== cases.length || actual.some((line) => line !== "0" && line !== "1")) {
    console.error(`formats_agree: expected ${cases.length} lines of 0 or 1 from ${helper}, got ${actual.length}`);
    process.exit(2);
}

const disagreements = [];
const stats = Object.fromEntries(FORMATS.map((f) => [f, { checked: 0, valid: 0, disagree: 0 }]));
cases.forEach(([format, s], i) => {
    const ours = actual[i] === "1";
    stats[format].checked++;
    if (expected[i]) stats[format].valid++;
    if (ours !== expected[i]) {
        stats[format].disagree++;
        disagreements.push(`  ${format} ${JSON.stringify(s)}: ajv ${expected[i] ? "accepts" : "rejects"}, agentry ${ours ? "accepts" : "rejects"}`);
    }
});
for (const f of FORMATS) {
    const { checked, valid, disagree } = stats[f];
    console.log(`  ${f.padEnd(10)} ${String(checked).padStart(6)} strings, ${String(valid).padStart(5)} valid for ajv, ${disagree} disagreements`);
}
console.log(`formats: ${cases.length} checked, ${disagreements.length} disagreements`);
if (disagreements.length !== 0) {
    console.log(disagreements.slice(0, 20).join("\n"));
    if (disagreements.length > 20) console.log(`  ... and ${disagreements.length - 20} more`);
    process.exit(1);
}
