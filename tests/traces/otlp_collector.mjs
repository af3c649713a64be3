// SPDX-License-Identifier: BSL-1.0
// A stand-in OTLP/HTTP collector for agentry's trace tests (Node.js, no npm packages).
//
//   node otlp_collector.mjs --out FILE [--delay-ms N] [--lifetime-ms N]
//
// Listens on 127.0.0.1 (a free port; prints "port N" on its first line) and takes
// POST /v1/traces with Content-Type application/json. Each body is checked strictly against
// the OTLP JSON mapping of ExportTraceServiceRequest: field names in lowerCamelCase, and no
// field the messages do not have; trace ids 32 and span ids 16 lower-case hex digits, not all
// zero; parentSpanId such an id, "" or absent; kind and status.code integers of their enums;
// 64-bit integers (startTimeUnixNano, endTimeUnixNano, intValue) as decimal strings (the
// protobuf JSON mapping also reads them as numbers; agentry writes strings, and a number is
// refused here so that a change would be seen); every AnyValue exactly one of its fields.
// A valid body is answered 200 {"partialSuccess":{}}, any other 400 {"error": why} (415 for
// another Content-Type). After each request FILE holds {"accepted": [bodies], "errors":
// [whys]}. --delay-ms holds each answer that long (a slow collector). It stops by itself after
// --lifetime-ms (60 s by default), on POST /shutdown, or when its standard input closes.

import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const out = option('--out', '');
const delay = Number(option('--delay-ms', '0'));
const lifetime = Number(option('--lifetime-ms', '60000'));
if (!out) {
  process.stderr.write('otlp_collector.mjs: --out FILE is required\n');
  process.exit(2);
}

const accepted = [];
const errors = [];
const save = () => writeFileSync(out, JSON.stringify({ accepted, errors }));
save();

class Invalid extends Error {}
const fail = (path, why) => {
  throw new Invalid(`${path}: ${why}`);
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const fields = (v, path, allowed) => {
  if (!isObject(v)) fail(path, 'must be an object');
  for (const key of Object.keys(v)) if (!allowed.includes(key)) fail(path, `unknown field "${key}"`);
};
const array = (v, path) => {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  return v;
};
const string = (v, path) => {
  if (typeof v !== 'string') fail(path, 'must be a string');
  return v;
};
const enumInt = (v, path, max) => {
  if (!Number.isInteger(v) || v < 0 || v > max) fail(path, `must be an integer enum value 0..${max}`);
  return v;
};
const uint32 = (v, path) => {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) fail(path, 'must be a uint32');
};
const int64 = (v, path, unsigned) => {
  if (typeof v !== 'string' || !(unsigned ? /^[0-9]+$/ : /^-?[0-9]+$/).test(v))
    fail(path, 'must be a 64-bit integer as a decimal string');
  const n = BigInt(v);
  if (unsigned ? n > 0xffffffffffffffffn : n < -(2n ** 63n) || n >= 2n ** 63n) fail(path, 'out of range');
  return n;
};
const id = (v, path, digits) => {
  if (typeof v !== 'string' || !new RegExp(`^[0-9a-f]{${digits}}$`).test(v))
    fail(path, `must be ${digits} lower-case hex digits`);
  if (/^0+$/.test(v)) fail(path, 'must not be all zero');
};

const anyValue = (v, path) => {
  const kinds = ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'];
  fields(v, path, kinds);
  const set = Object.keys(v);
  if (set.length !== 1) fail(path, `must have exactly one of ${kinds.join(', ')}`);
  const [kind] = set;
  const x = v[kind];
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'stringValue': string(x, at); break;
    case 'boolValue': if (typeof x !== 'boolean') fail(at, 'must be a boolean'); break;
    case 'intValue': int64(x, at, false); break;
    case 'doubleValue':
      if (typeof x !== 'number' && !['NaN', 'Infinity', '-Infinity'].includes(x)) fail(at, 'must be a number');
      break;
    case 'bytesValue': if (typeof x !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(x)) fail(at, 'must be base64'); break;
    case 'arrayValue':
      fields(x, at, ['values']);
      array(x.values ?? [], `${at}.values`).forEach((e, i) => anyValue(e, `${at}.values[${i}]`));
      break;
    case 'kvlistValue':
      fields(x, at, ['values']);
      keyValues(x.values ?? [], `${at}.values`);
      break;
  }
};
const keyValues = (list, path) => {
  const seen = new Set();
  array(list, path).forEach((kv, i) => {
    const at = `${path}[${i}]`;
    fields(kv, at, ['key', 'value']);
    if (string(kv.key, `${at}.key`) === '') fail(`${at}.key`, 'must not be empty');
    if (seen.has(kv.key)) fail(`${at}.key`, `"${kv.key}" is repeated`);
    seen.add(kv.key);
    if (!('value' in kv)) fail(at, 'has no value');
    anyValue(kv.value, `${at}.value`);
  });
};

const span = (s, path) => {
  fields(s, path, ['traceId', 'spanId', 'traceState', 'parentSpanId', 'flags', 'name', 'kind', 'startTimeUnixNano',
    'endTimeUnixNano', 'attributes', 'droppedAttributesCount', 'events', 'droppedEventsCount', 'links',
    'droppedLinksCount', 'status']);
  id(s.traceId, `${path}.traceId`, 32);
  id(s.spanId, `${path}.spanId`, 16);
  if (s.parentSpanId !== undefined && s.parentSpanId !== '') id(s.parentSpanId, `${path}.parentSpanId`, 16);
  if (s.traceState !== undefined) string(s.traceState, `${path}.traceState`);
  if (s.flags !== undefined) uint32(s.flags, `${path}.flags`);
  if (string(s.name, `${path}.name`) === '') fail(`${path}.name`, 'must not be empty');
  if (s.kind !== undefined) enumInt(s.kind, `${path}.kind`, 5);
  const start = int64(s.startTimeUnixNano, `${path}.startTimeUnixNano`, true);
  const end = int64(s.endTimeUnixNano, `${path}.endTimeUnixNano`, true);
  if (end < start) fail(`${path}.endTimeUnixNano`, 'is before startTimeUnixNano');
  keyValues(s.attributes ?? [], `${path}.attributes`);
  for (const n of ['droppedAttributesCount', 'droppedEventsCount', 'droppedLinksCount'])
    if (s[n] !== undefined) uint32(s[n], `${path}.${n}`);
  if (s.events !== undefined && array(s.events, `${path}.events`).length) fail(`${path}.events`, 'agentry sends none');
  if (s.links !== undefined && array(s.links, `${path}.links`).length) fail(`${path}.links`, 'agentry sends none');
  if (s.status !== undefined) {
    fields(s.status, `${path}.status`, ['code', 'message']);
    if (s.status.code !== undefined) enumInt(s.status.code, `${path}.status.code`, 2);
    if (s.status.message !== undefined) string(s.status.message, `${path}.status.message`);
  }
};

const request = (body) => {
  fields(body, '$', ['resourceSpans']);
  if (array(body.resourceSpans, '$.resourceSpans').length === 0) fail('$.resourceSpans', 'is empty');
  body.resourceSpans.forEach((rs, i) => {
    const at = `$.resourceSpans[${i}]`;
    fields(rs, at, ['resource', 'scopeSpans', 'schemaUrl']);
    if (rs.resource !== undefined) {
      fields(rs.resource, `${at}.resource`, ['attributes', 'droppedAttributesCount']);
      keyValues(rs.resource.attributes ?? [], `${at}.resource.attributes`);
    }
    if (rs.schemaUrl !== undefined) string(rs.schemaUrl, `${at}.schemaUrl`);
    array(rs.scopeSpans, `${at}.scopeSpans`).forEach((ss, j) => {
      const sat = `${at}.scopeSpans[${j}]`;
      fields(ss, sat, ['scope', 'spans', 'schemaUrl']);
      if (ss.scope !== undefined) {
        fields(ss.scope, `${sat}.scope`, ['name', 'version', 'attributes', 'droppedAttributesCount']);
        if (ss.scope.name !== undefined) string(ss.scope.name, `${sat}.scope.name`);
        if (ss.scope.version !== undefined) string(ss.scope.version, `${sat}.scope.version`);
        keyValues(ss.scope.attributes ?? [], `${sat}.scope.attributes`);
      }
      if (ss.schemaUrl !== undefined) string(ss.schemaUrl, `${sat}.schemaUrl`);
      array(ss.spans, `${sat}.spans`).forEach((s, k) => span(s, `${sat}.spans[${k}]`));
    });
  });
};

const answer = (res, status, body) => {
  const text = JSON.stringify(body);
  setTimeout(() => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }, delay);
};

const server = createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size <= 8 << 20) chunks.push(c);
  });
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/shutdown') {
      res.writeHead(200, { 'Content-Length': 0 });
      res.end(() => stop());
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404, { 'Content-Length': 0 });
      res.end();
      return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') {
      errors.push(`Content-Type is "${req.headers['content-type'] ?? ''}", not application/json`);
      save();
      answer(res, 415, { error: errors.at(-1) });
      return;
    }
    if (size > 8 << 20) {
      errors.push('the body passed 8 MiB');
      save();
      answer(res, 400, { error: errors.at(-1) });
      return;
    }
    try {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        fail('$', `not JSON: ${e.message}`);
      }
      request(body);
      accepted.push(body);
      save();
      answer(res, 200, { partialSuccess: {} });
    } catch (e) {
      if (!(e instanceof Invalid)) throw e;
      errors.push(e.message);
      save();
      answer(res, 400, { error: e.message });
    }
  });
});

const stop = () => {
  save();
  server.close();
  server.closeAllConnections();
  process.exit(0);
};

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${server.address().port}\n`);
});
setTimeout(stop, lifetime).unref();
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
