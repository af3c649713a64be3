// SPDX-License-Identifier: BSL-1.0
// Runs @dwmkerr/mock-llm (an OpenAI-compatible mock server from npm, pinned in package.json)
// for the mock_llm tests, with the rules of mock-llm.yaml next to this script.
//
//   node launch.mjs
//
// Listens on 127.0.0.1 on a port the system picks and prints one line, "port <n>" (or
// "skip <reason>" when the package is not installed), then serves until its standard input
// ends or 60 s pass without a request. mock-llm's own log goes to standard error.
//
// mock-llm's command (dist/main.js) takes its address from HOST and PORT, but with PORT=0 it
// prints the 0 it was given, not the port it got; so this script makes the same server from
// the package's createServer and loadConfig and listens itself.

import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// Standard output carries the port line only.
console.log = (...args) => console.error(...args);
console.info = console.log;

let mock_llm, config;
try {
    const version = require('@dwmkerr/mock-llm/package.json').version;
    mock_llm = require('@dwmkerr/mock-llm/dist/server.js');
    config = require('@dwmkerr/mock-llm/dist/config.js');
    console.error(`launch.mjs: @dwmkerr/mock-llm ${version}`);
} catch (e) {
    process.stdout.write(`skip @dwmkerr/mock-llm is not installed (${e.code ?? e.message}); run \`npm ci\` in ${path.resolve(here, '../../..')}\n`);
    process.exit(0);
}

let idle;
function stop(reason) {
    console.error(`launch.mjs: stopping: ${reason}`);
    process.exit(0);
}
function keep_alive() {
    clearTimeout(idle);
    idle = setTimeout(() => stop('60 s without a request'), 60_000);
    idle.unref();
}

const app = mock_llm.createServer(config.loadConfig(path.join(here, 'mock-llm.yaml')), '127.0.0.1', 0);
const server = http.createServer(app);
server.on('request', keep_alive);
server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`port ${server.address().port}\n`);
    keep_alive();
});
process.stdin.on('end', () => stop('standard input ended'));
process.stdin.on('error', () => stop('standard input failed'));
process.stdin.resume();
