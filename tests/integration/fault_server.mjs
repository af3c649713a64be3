// SPDX-License-Identifier: BSL-1.0
// A scripted loopback HTTP server for the curl transport tests, with no npm packages.
//
//   node fault_server.mjs
//
// Listens on 127.0.0.1, on ports the system picks, and prints one line:
//   ports <http> <https> <proxy>
// then serves until its standard input ends (the test is over) or 60 seconds have passed.
// Nothing else goes to standard output; a log of the requests goes to standard error.
//
// <http> and <https> (tls/cert.pem) serve the same behaviours, chosen by the URL path:
//   /json                   200 application/json, with an X-Request-ID header
//   /sse?events=N           200 text/event-stream: N events "data: {"n":i}\n\n", one write each, 2 ms apart
//   /status/<code>          that status with a JSON error body; ?retry_after=<value> adds Retry-After
//   /malformed              200 application/json whose body is not JSON
//   /empty                  200 with Content-Length: 0
//   /no_content             204
//   /html                   200 text/html
//   /port                   200 text/plain: the client's port, which names its connection
//   /echo                   200 text/plain: the request line, its headers as received, the body's length and its first 64 bytes
//   /early_hints            103 Early Hints, then 200 with X-Final: yes
//   /redirect               302 to /json
//   /slow?ms=N              200 after N ms
//   /truncate               200 chunked: two events, then the connection ends without the last chunk
//   /stall                  200 chunked: two events, then nothing until the server stops
//   /reset/<key>            200 chunked: two events; once /release/<key> has come, a TCP reset
//   /wait/<key>             200 "released <key>" once /release/<key> has come
//   /release/<key>          200 "ok"; releases <key>
//   /seen/<key>             200 "yes" if a request for /wait/<key> or /reset/<key> has come, else "no"
//   /proxy_log              200 text/plain: the request lines the proxy received, one a line
//   /big?bytes=N&status=S   status S (200) text/event-stream, chunked: N bytes of "x" in 64 KiB writes
//   /big_head               200 with 400 headers of 1 KiB each (a head past 256 KiB)
// <proxy> is a forward proxy to 127.0.0.1 only: absolute-form requests are forwarded, CONNECT
// opens a tunnel; each request line is logged for /proxy_log.

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const two_events = 'data: {"n":0}\n\ndata: {"n":1}\n\n';

const released = new Set();
const waiting = new Map();  // key -> callbacks run on release
const seen = new Set();
const proxy_log = [];

function on_release(key, callback) {
    if (released.has(key)) return callback();
    if (!waiting.has(key)) waiting.set(key, []);
    waiting.get(key).push(callback);
}

function release(key) {
    released.add(key);
    for (const callback of waiting.get(key) ?? []) callback();
    waiting.delete(key);
}

function text(res, status, body, type = 'text/plain') {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
}

function serve(req, res, body) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    const [what, arg] = parts;
    process.stderr.write(`fault_server: ${req.method} ${req.url} from port ${req.socket.remotePort}\n`);
    switch (what) {
    case 'json':
        res.writeHead(200, ['Content-Type', 'application/json', 'X-Request-ID', 'req-123', 'Content-Length', '25']);
        return res.end('{"id":"chat-1","ok":true}');
    case 'sse': {
        const events = Number(url.searchParams.get('events') ?? 20);
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        let i = 0;
        const next = () => {
            if (i === events) return res.end();
            res.write(`data: {"n":${i++}}\n\n`);
            setTimeout(next, 2);
        };
        return next();
    }
    case 'status': {
        const headers = { 'Content-Type': 'application/json' };
        if (url.searchParams.has('retry_after')) headers['Retry-After'] = url.searchParams.get('retry_after');
        res.writeHead(Number(arg), headers);
        return res.end(`{"error":{"message":"status ${arg}","type":"fault"}}`);
    }
    case 'malformed':
        return text(res, 200, '{"choices":[{"message":', 'application/json');
    case 'empty':
        return text(res, 200, '', 'application/json');
    case 'no_content':
        res.writeHead(204);
        return res.end();
    case 'html':
        return text(res, 200, '<html><body>502 Bad Gateway</body></html>', 'text/html; charset=utf-8');
    case 'port':
        return text(res, 200, String(req.socket.remotePort));
    case 'echo': {
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        lines.push(`body length ${body.length}`, `body ${body.subarray(0, 64).toString()}`);
        return text(res, 200, lines.join('\n') + '\n');
    }
    case 'early_hints':
        res.writeEarlyHints({ link: '</style.css>; rel=preload' });
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Final': 'yes' });
        return res.end('{"final":true}');
    case 'redirect':
        res.writeHead(302, { Location: '/json', 'Content-Type': 'text/plain' });
        return res.end('moved');
    case 'slow': {
        const timer = setTimeout(() => text(res, 200, 'late'), Number(url.searchParams.get('ms') ?? 5000));
        res.on('close', () => clearTimeout(timer));
        return;
    }
    case 'truncate':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        return res.write(two_events, () => req.socket.end());
    case 'stall':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        return res.write(two_events);
    case 'reset':
        seen.add(arg);
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        return res.write(two_events, () => on_release(arg, () => req.socket.resetAndDestroy()));
    case 'wait':
        seen.add(arg);
        return on_release(arg, () => text(res, 200, `released ${arg}`));
    case 'release':
        release(arg);
        return text(res, 200, 'ok');
    case 'seen':
        return text(res, 200, seen.has(arg) ? 'yes' : 'no');
    case 'big': {
        let left = Number(url.searchParams.get('bytes') ?? 0);
        res.writeHead(Number(url.searchParams.get('status') ?? 200), { 'Content-Type': 'text/event-stream' });
        const piece = Buffer.alloc(65536, 'x');
        const next = () => {
            while (left > 0) {
                const n = Math.min(left, piece.length);
                left -= n;
                if (!res.write(piece.subarray(0, n))) return res.once('drain', next);
            }
            res.end();
        };
        res.on('close', () => { left = 0; });
        return next();
    }
    case 'big_head': {
        const headers = [];
        for (let i = 0; i < 400; ++i) headers.push(`X-Filler-${i}`, 'y'.repeat(1024));
        res.writeHead(200, headers);
        return res.end('ok');
    }
    case 'proxy_log':
        return text(res, 200, proxy_log.map((line) => line + '\n').join(''));
    default:
        return text(res, 404, `no behaviour for ${url.pathname}`);
    }
}

function handler(req, res) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => serve(req, res, Buffer.concat(chunks)));
}

function loopback_target(host) {
    return host === '127.0.0.1' || host === 'localhost';
}

const plain = http.createServer(handler);
const secure = https.createServer({
    cert: fs.readFileSync(path.join(here, 'tls', 'cert.pem')),
    key: fs.readFileSync(path.join(here, 'tls', 'key.pem')),
}, handler);

const proxy = http.createServer((req, res) => {
    proxy_log.push(`${req.method} ${req.url} HTTP/${req.httpVersion}`);
    let target;
    try { target = new URL(req.url); } catch { return text(res, 400, 'absolute-form URL expected'); }
    if (target.protocol !== 'http:' || !loopback_target(target.hostname)) return text(res, 403, 'loopback targets only');
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode, answer.rawHeaders);
        answer.pipe(res);
    });
    upstream.on('error', () => text(res, 502, 'upstream failed'));
    req.pipe(upstream);
});
proxy.on('connect', (req, client, head) => {
    proxy_log.push(`${req.method} ${req.url} HTTP/${req.httpVersion}`);
    const [host, port] = req.url.split(':');
    if (!loopback_target(host)) return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
});

function listen(server) {
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

function stop(reason) {
    process.stderr.write(`fault_server: stopping: ${reason}\n`);
    process.exit(0);
}

const ports = [await listen(plain), await listen(secure), await listen(proxy)];
process.stdout.write(`ports ${ports.join(' ')}\n`);
process.stdin.on('end', () => stop('standard input ended'));
process.stdin.on('error', () => stop('standard input failed'));
process.stdin.resume();
setTimeout(() => stop('60 s passed'), 60_000).unref();
