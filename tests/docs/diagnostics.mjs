// SPDX-License-Identifier: BSL-1.0
// Checks that the compiler output quoted in a document is what the compiler prints. A block
// follows a line "<!-- compiler output: gcc|clang <case> -->"; the case is compiled with
// AGENTRY_COMPILE_FAIL and each line of the block must be found in one line of the output,
// file locations left out, with "..." in the block standing for any text.
// Usage: node diagnostics.mjs <gcc|clang> <compiler> <source dir> <include dir>... -- <doc>...
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [kind, compiler, root, ...rest] = process.argv.slice(2);
const split = rest.indexOf('--');
const includes = rest.slice(0, split);
const docs = rest.slice(split + 1);

function blocks(doc) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    const found = [];
    for (let i = 0; i < lines.length; ++i) {
        const m = /^<!-- compiler output: (gcc|clang) (\S+) -->$/.exec(lines[i]);
        if (!m) continue;
        if (lines[i + 1] !== '```') throw new Error(`${doc}:${i + 2}: a code block must follow the marker`);
        const body = [];
        let j = i + 2;
        for (; j < lines.length && lines[j] !== '```'; ++j) body.push(lines[j]);
        found.push({ kind: m[1], source: m[2], body, line: i + 1 });
        i = j;
    }
    return found;
}

// GCC quotes with ‘’ in a UTF-8 locale and with '' otherwise.
const plain_quotes = (s) => s.replace(/[‘’]/g, "'");

// "path:12:5: error: x" -> "error: x"; "path: In instantiation" -> "In instantiation".
function normalise(text) {
    return text.split('\n').map((l) =>
        plain_quotes(l.replace(/^\S+?:\d+:\d+: /, '').replace(/^\S+?: (In (instantiation|function))/, '$1')));
}

function matches(expected, actual) {
    let at = 0;
    for (const piece of plain_quotes(expected).split('...')) {
        const found = actual.indexOf(piece, at);
        if (found < 0) return false;
        at = found + piece.length;
    }
    return true;
}

let failures = 0;
let checked = 0;
for (const doc of docs) {
    for (const block of blocks(doc)) {
        if (block.kind !== kind) continue;
        const args = ['-std=c++20', '-fsyntax-only', '-DAGENTRY_COMPILE_FAIL', `-I${includes[0]}`,
                      ...includes.slice(1).filter((d) => d !== '/usr/include').map((d) => `-isystem${d}`),
                      join(root, block.source)];
        const run = spawnSync(compiler, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
        const output = normalise(run.stdout + run.stderr);
        for (const line of block.body) {
            ++checked;
            if (!output.some((o) => matches(line, o))) {
                ++failures;
                console.log(`${doc}:${block.line}: not in ${compiler}'s output for ${block.source}:\n  ${line}`);
            }
        }
    }
}
console.log(`${checked} quoted ${kind} lines checked, ${failures} not found`);
if (checked === 0) {
    console.log(`no ${kind} block found in ${docs.join(', ')}`);
    process.exit(1);
}
process.exit(failures === 0 ? 0 : 1);
