// SPDX-License-Identifier: BSL-1.0
// A scripted model server for the agent and provider integration tests, with Node's built-ins
// only. It speaks four chat APIs, in the formats their documentation gives:
//   OpenAI Chat Completions   POST .../chat/completions                         JSON, or SSE with "stream": true
//   OpenAI Responses          POST .../responses                                JSON, or SSE with "stream": true
//   Anthropic Messages        POST .../v1/messages                              JSON, or SSE with "stream": true
//   Gemini                    POST .../models/<model>:generateContent           JSON
//                             POST .../models/<model>:streamGenerateContent?alt=sse   SSE
//   Ollama                    POST .../api/chat                                 JSON with "stream": false, else NDJSON
//
//   node model_server.mjs
//
// Listens on 127.0.0.1 on a port the system picks and prints one line, "port <n>", then serves
// until its standard input ends or 60 s pass without a request. A log goes to standard error.
//
// A test scripts a scenario, then gives a provider http://127.0.0.1:<n>/scenario/<name> (and the
// API's version path, /v1 or /v1beta, where the provider's base URL has one) as its base URL:
//   PUT /scenario/<name>             body {"turns": [turn, ...]}: the model's turns; clears the record
//   GET /scenario/<name>/requests    the API requests received, in order:
//                                    [{"method", "path", "headers": [[name, value], ...], "body": <JSON>}, ...]
// The n-th API request of a scenario is answered with turn n, in the format of that request:
//   text         the answer's text
//   calls        [{"name", "args": {...}, "id"?, "signature"?}]: tool calls; without "id", OpenAI and
//                Anthropic calls get one ("call_<turn>_<k>", "toolu_<turn>_<k>"), Gemini and Ollama calls
//                none; "signature" is Gemini's thoughtSignature of the call's part
//   usage        {"input", "output", "cached"?, "reasoning"?}: token counts (default 10 and 5; 0 and 0)
//   reasoning    Responses: a reasoning item before the answer, with this summary text; its
//                encrypted_content is sent when the request includes "reasoning.encrypted_content"
//   thinking     Anthropic: a thinking block before the answer, with this text and a signature
//   redacted     Anthropic: a redacted_thinking block after the thinking block, with this data
//   pieces       size of the text and argument pieces of a stream (default 4)
//   delay_ms     a wait before answering, ended early when the client goes away
//   status       an error status instead of an answer, with "message" (default "scripted error");
//                "retry_after" (seconds) becomes Retry-After, or Gemini's RetryInfo
// A request past the last turn gets a 400 saying so, as does one the API would refuse for its
// tool messages (OpenAI, Anthropic and Gemini pair every call with its result; Anthropic wants
// tools defined in a request that has tool blocks), or for the reasoning it must carry: a
// Responses request must send back every reasoning item this scenario sent before a call it
// sends back, value for value (or name the response by previous_response_id, when that response
// was stored), and an Anthropic request with thinking on must start each assistant message of
// this scenario's replies with the thinking and redacted_thinking blocks sent, value for value
// and in order; a Gemini request must send each call's thoughtSignature back on its part.

import http from 'node:http';

const scenarios = new Map();  // name -> { turns, requests, sent }

// `sent`: what this scenario's answers held that must come back: Responses responses
// ({ id, stored, items }), Anthropic replies ({ thinking: [blocks], tool_ids }).
function scenario(name) {
    if (!scenarios.has(name)) scenarios.set(name, { turns: [], requests: [], sent: [] });
    return scenarios.get(name);
}

// A JSON value as text with the members of every object in name order: equal for equal values.
function canonical(value) {
    if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
    if (value && typeof value === 'object')
        return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
    return JSON.stringify(value);
}

function log(line) {
    process.stderr.write(`model_server: ${line}\n`);
}

function send_json(res, status, value, headers = {}) {
    const body = JSON.stringify(value);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
}

// Writes `events` one at a time, 1 ms apart, then ends the response.
function send_stream(res, type, events) {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
    let i = 0;
    const next = () => {
        if (res.destroyed) return;
        if (i === events.length) return res.end();
        res.write(events[i++]);
        setTimeout(next, 1);
    };
    next();
}

function pieces(text, size) {
    const out = [];
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out;
}

const usage_of = (turn) => ({ input: turn.usage?.input ?? 10, output: turn.usage?.output ?? 5 });
const piece_size = (turn) => turn.pieces ?? 4;

// ---- OpenAI Chat Completions ----------------------------------------------------------------

const openai = {
    error(turn) {
        const message = turn.message ?? 'scripted error';
        const kinds = {
            400: ['invalid_request_error', null], 401: ['invalid_request_error', 'invalid_api_key'],
            403: ['permission_error', null], 429: ['requests', 'rate_limit_exceeded'],
        };
        const [type, code] = kinds[turn.status] ?? ['server_error', null];
        return { error: { message, type, param: null, code } };
    },
    calls(turn, index) {
        return (turn.calls ?? []).map((c, k) => ({
            id: c.id ?? `call_${index}_${k}`, type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
        }));
    },
    whole(res, turn, index, request) {
        const calls = openai.calls(turn, index);
        const u = usage_of(turn);
        send_json(res, 200, {
            id: `chatcmpl-${index}`, object: 'chat.completion', created: 1764547200, model: request.model,
            choices: [{
                index: 0, logprobs: null, finish_reason: calls.length ? 'tool_calls' : 'stop',
                message: { role: 'assistant', content: turn.text ?? null, refusal: null, ...(calls.length ? { tool_calls: calls } : {}) },
            }],
            usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output },
        });
    },
    stream(res, turn, index, request) {
        const with_usage = request.stream_options?.include_usage === true;
        const base = { id: `chatcmpl-${index}`, object: 'chat.completion.chunk', created: 1764547200, model: request.model };
        const chunk = (delta, finish_reason = null) => `data: ${JSON.stringify({
            ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...(with_usage ? { usage: null } : {}),
        })}\n\n`;
        const events = [chunk({ role: 'assistant', content: '', refusal: null })];
        for (const p of pieces(turn.text ?? '', piece_size(turn))) events.push(chunk({ content: p }));
        openai.calls(turn, index).forEach((c, k) => {
            events.push(chunk({ tool_calls: [{ index: k, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
            for (const p of pieces(c.function.arguments, piece_size(turn)))
                events.push(chunk({ tool_calls: [{ index: k, function: { arguments: p } }] }));
        });
        events.push(chunk({}, turn.calls?.length ? 'tool_calls' : 'stop'));
        if (with_usage) {
            const u = usage_of(turn);
            events.push(`data: ${JSON.stringify({ ...base, choices: [],
                usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output } })}\n\n`);
        }
        events.push('data: [DONE]\n\n');
        send_stream(res, 'text/event-stream', events);
    },
    streamed: (request) => request.stream === true,
    // The API's checks of a conversation's tool messages, in its words.
    validate(request) {
        const messages = request.messages ?? [];
        for (let i = 0; i < messages.length; ++i) {
            const m = messages[i];
            if (m.role === 'tool') {
                let j = i - 1;
                while (j >= 0 && messages[j].role === 'tool') --j;
                if (j < 0 || !(messages[j].tool_calls ?? []).some((c) => c.id === m.tool_call_id))
                    return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
            }
            if (m.role === 'assistant' && m.tool_calls?.length) {
                const answered = new Set();
                for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; ++j) answered.add(messages[j].tool_call_id);
                const missing = m.tool_calls.filter((c) => !answered.has(c.id)).map((c) => c.id);
                if (missing.length)
                    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. ` +
                           `The following tool_call_ids did not have response messages: ${missing.join(', ')}`;
            }
        }
        return null;
    },
};

// ---- OpenAI Responses -----------------------------------------------------------------------

const responses = {
    error: (turn) => openai.error(turn),
    // The output items of turn `index`: a reasoning item, the message, the function calls.
    items(turn, index, request) {
        const items = [];
        if (turn.reasoning !== undefined) {
            const encrypted = (request.include ?? []).includes('reasoning.encrypted_content');
            items.push({ id: `rs_${index}`, type: 'reasoning',
                         summary: turn.reasoning ? [{ type: 'summary_text', text: turn.reasoning }] : [],
                         ...(encrypted ? { encrypted_content: `gAAAAB/${index}+r\u00e9sum\u00e9==` } : {}) });
        }
        if (turn.text)
            items.push({ id: `msg_${index}`, type: 'message', status: 'completed', role: 'assistant',
                         content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }] });
        (turn.calls ?? []).forEach((c, k) => items.push({
            id: `fc_${index}_${k}`, type: 'function_call', status: 'completed', call_id: c.id ?? `call_${index}_${k}`,
            name: c.name, arguments: JSON.stringify(c.args ?? {}),
        }));
        return items;
    },
    response(turn, index, request, items, status) {
        const u = usage_of(turn);
        return {
            id: `resp_${index}`, object: 'response', created_at: 1764547200, status, error: null, incomplete_details: null,
            instructions: request.instructions ?? null, model: request.model, output: items,
            parallel_tool_calls: request.parallel_tool_calls ?? true, previous_response_id: request.previous_response_id ?? null,
            store: request.store ?? true, tools: request.tools ?? [],
            usage: status === 'completed' ? {
                input_tokens: u.input, input_tokens_details: { cached_tokens: turn.usage?.cached ?? 0 },
                output_tokens: u.output, output_tokens_details: { reasoning_tokens: turn.usage?.reasoning ?? 0 },
                total_tokens: u.input + u.output,
            } : null,
        };
    },
    remember(s, index, request, items) {
        s.sent.push({ id: `resp_${index}`, stored: request.store !== false, items });
    },
    whole(res, turn, index, request, s) {
        const items = responses.items(turn, index, request);
        responses.remember(s, index, request, items);
        send_json(res, 200, responses.response(turn, index, request, items, 'completed'));
    },
    stream(res, turn, index, request, s) {
        const items = responses.items(turn, index, request);
        responses.remember(s, index, request, items);
        let sequence = 0;
        const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
        const events = [event('response.created', { response: responses.response(turn, index, request, [], 'in_progress') }),
                        event('response.in_progress', { response: responses.response(turn, index, request, [], 'in_progress') })];
        items.forEach((item, output_index) => {
            // As the API does: the item as added holds nothing yet (no encrypted content, no
            // arguments); the item as done is the whole one.
            const added = item.type === 'reasoning' ? { id: item.id, type: 'reasoning', summary: [] }
                        : item.type === 'message' ? { ...item, status: 'in_progress', content: [] }
                        : { ...item, status: 'in_progress', arguments: '' };
            events.push(event('response.output_item.added', { output_index, item: added }));
            if (item.type === 'message') {
                const text = item.content[0].text;
                events.push(event('response.content_part.added', { item_id: item.id, output_index, content_index: 0,
                                                                    part: { type: 'output_text', text: '', annotations: [] } }));
                for (const p of pieces(text, piece_size(turn)))
                    events.push(event('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: p, logprobs: [] }));
                events.push(event('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] }));
                events.push(event('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] }));
            } else if (item.type === 'function_call') {
                for (const p of pieces(item.arguments, piece_size(turn)))
                    events.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: p }));
                events.push(event('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }));
            }
            events.push(event('response.output_item.done', { output_index, item }));
        });
        events.push(event('response.completed', { response: responses.response(turn, index, request, items, 'completed') }));
        send_stream(res, 'text/event-stream', events);
    },
    streamed: (request) => request.stream === true,
    // The API's checks of the items sent back, in substance.
    validate(request, s) {
        const input = Array.isArray(request.input) ? request.input : [];
        const outputs = new Set(input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id));
        let earlier = [];  // the items the request's context holds before its input
        if (request.previous_response_id !== undefined) {
            const at = s.sent.findIndex((r) => r.id === request.previous_response_id);
            if (at < 0 || !s.sent[at].stored) return `Previous response with id '${request.previous_response_id}' not found.`;
            for (let i = 0; i <= at; ++i) earlier = earlier.concat(s.sent[i].items);
            for (const item of s.sent[at].items)
                if (item.type === 'function_call' && !outputs.has(item.call_id))
                    return `No tool output found for function call ${item.call_id}.`;
        }
        const context = earlier.concat(input);
        for (let i = 0; i < input.length; ++i) {
            const item = input[i];
            if (item.type === 'function_call_output' && !context.some((c) => c.type === 'function_call' && c.call_id === item.call_id))
                return `No tool call found for function call output with call_id ${item.call_id}.`;
            if (item.type === 'reasoning') {
                const sent = s.sent.flatMap((r) => r.items).find((r) => r.id === item.id);
                if (!sent) return `Item with id '${item.id}' not found.`;
                if (sent.encrypted_content === undefined || item.encrypted_content !== sent.encrypted_content)
                    return `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. ` +
                           'Try again with `store` set to true, or remove this item from your input.';
                if (canonical(item) !== canonical(sent)) return `The encrypted content for item ${item.id} could not be verified.`;
            }
            if (item.type !== 'function_call') continue;
            if (!outputs.has(item.call_id)) return `No tool output found for function call ${item.call_id}.`;
            // The reasoning item that came before this call in its response must come before it here.
            const from = s.sent.find((r) => r.items.some((x) => x.type === 'function_call' && x.call_id === item.call_id));
            if (!from) continue;
            const call = from.items.find((x) => x.type === 'function_call' && x.call_id === item.call_id);
            if (call.name !== item.name || call.arguments !== item.arguments)
                return `The function call ${item.call_id} does not match the one the model made.`;
            for (const r of from.items.slice(0, from.items.indexOf(call)).filter((x) => x.type === 'reasoning'))
                if (!input.slice(0, i).some((x) => x.type === 'reasoning' && x.id === r.id))
                    return `Item '${call.id}' of type 'function_call' was provided without its required 'reasoning' item: '${r.id}'.`;
        }
        return null;
    },
};

// ---- Anthropic Messages ---------------------------------------------------------------------

const anthropic = {
    error(turn) {
        const types = {
            400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
            429: 'rate_limit_error', 529: 'overloaded_error',
        };
        return { type: 'error', error: { type: types[turn.status] ?? 'api_error', message: turn.message ?? 'scripted error' } };
    },
    blocks(turn, index) {
        const blocks = [];
        if (turn.thinking !== undefined)
            blocks.push({ type: 'thinking', thinking: turn.thinking, signature: `EqQBCkYIBhgCIkA/${index}+sign\u00e9==` });
        if (turn.redacted !== undefined) blocks.push({ type: 'redacted_thinking', data: turn.redacted });
        if (turn.text) blocks.push({ type: 'text', text: turn.text });
        (turn.calls ?? []).forEach((c, k) =>
            blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${index}_${k}`, name: c.name, input: c.args ?? {} }));
        return blocks;
    },
    stop_reason: (turn) => (turn.calls?.length ? 'tool_use' : 'end_turn'),
    remember(s, blocks) {
        s.sent.push({ thinking: blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking'),
                      tool_ids: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) });
    },
    whole(res, turn, index, request, s) {
        const u = usage_of(turn);
        const blocks = anthropic.blocks(turn, index);
        anthropic.remember(s, blocks);
        send_json(res, 200, {
            id: `msg_${index}`, type: 'message', role: 'assistant', model: request.model,
            content: blocks, stop_reason: anthropic.stop_reason(turn), stop_sequence: null,
            usage: { input_tokens: u.input, output_tokens: u.output },
        }, { 'request-id': `req_${index}` });
    },
    stream(res, turn, index, request, s) {
        anthropic.remember(s, anthropic.blocks(turn, index));
        const u = usage_of(turn);
        const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
        const events = [
            event('message_start', { message: {
                id: `msg_${index}`, type: 'message', role: 'assistant', model: request.model, content: [],
                stop_reason: null, stop_sequence: null, usage: { input_tokens: u.input, output_tokens: 1 },
            } }),
            event('ping', {}),
        ];
        anthropic.blocks(turn, index).forEach((b, i) => {
            if (b.type === 'thinking') {
                events.push(event('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '', signature: '' } }));
                for (const p of pieces(b.thinking, piece_size(turn)))
                    events.push(event('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: p } }));
                events.push(event('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: b.signature } }));
            } else if (b.type === 'redacted_thinking') {
                events.push(event('content_block_start', { index: i, content_block: b }));
            } else if (b.type === 'text') {
                events.push(event('content_block_start', { index: i, content_block: { type: 'text', text: '' } }));
                for (const p of pieces(b.text, piece_size(turn)))
                    events.push(event('content_block_delta', { index: i, delta: { type: 'text_delta', text: p } }));
            } else {
                events.push(event('content_block_start', { index: i, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }));
                for (const p of pieces(JSON.stringify(b.input), piece_size(turn)))
                    events.push(event('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: p } }));
            }
            events.push(event('content_block_stop', { index: i }));
        });
        events.push(event('message_delta', { delta: { stop_reason: anthropic.stop_reason(turn), stop_sequence: null },
                                             usage: { output_tokens: u.output } }));
        events.push(event('message_stop', {}));
        send_stream(res, 'text/event-stream', events);
    },
    streamed: (request) => request.stream === true,
    // The API's checks of a conversation's tool blocks, in its words.
    validate(request, s) {
        const messages = request.messages ?? [];
        const blocks = (m) => (Array.isArray(m?.content) ? m.content : []);
        const thinking = request.thinking?.type === 'enabled' || request.thinking?.type === 'adaptive';
        for (let i = 0; thinking && i < messages.length; ++i) {
            if (messages[i].role !== 'assistant') continue;
            const ids = blocks(messages[i]).filter((b) => b.type === 'tool_use').map((b) => b.id);
            const reply = s.sent.find((r) => r.tool_ids.length && r.tool_ids.every((id) => ids.includes(id)));
            if (!reply || !reply.thinking.length) continue;
            const head = blocks(messages[i]).slice(0, reply.thinking.length);
            for (let k = 0; k < reply.thinking.length; ++k) {
                const want = reply.thinking[k];
                if (head[k]?.type !== want.type)
                    return `messages.${i}.content.${k}.type: Expected \`${want.type}\`, but found \`${head[k]?.type}\`. ` +
                           'With thinking on, an assistant message must start with the thinking blocks the model sent.';
                if (canonical(head[k]) !== canonical(want))
                    return want.type === 'thinking' ? `messages.${i}.content.${k}: Invalid \`signature\` in \`thinking\` block`
                                                    : `messages.${i}.content.${k}: Invalid \`data\` in \`redacted_thinking\` block`;
            }
        }
        const has_tool_blocks = messages.some((m) => blocks(m).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
        if (has_tool_blocks && !request.tools?.length)
            return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
        for (let i = 0; i < messages.length; ++i) {
            const uses = blocks(messages[i]).filter((b) => b.type === 'tool_use').map((b) => b.id);
            const results = blocks(messages[i + 1]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
            const missing = uses.filter((id) => !results.includes(id));
            if (missing.length)
                return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
                       'Each `tool_use` block must have a corresponding `tool_result` block in the next message.';
            const before = blocks(messages[i - 1]).filter((b) => b.type === 'tool_use').map((b) => b.id);
            const orphan = blocks(messages[i]).filter((b) => b.type === 'tool_result' && !before.includes(b.tool_use_id));
            if (orphan.length)
                return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan[0].tool_use_id}. ` +
                       'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.';
        }
        return null;
    },
};

// ---- Gemini generateContent -----------------------------------------------------------------

const gemini = {
    error(turn) {
        const statuses = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND',
                           429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE' };
        const error = { code: turn.status, message: turn.message ?? 'scripted error', status: statuses[turn.status] ?? 'INTERNAL' };
        if (turn.retry_after !== undefined)
            error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${turn.retry_after}s` }];
        return { error };
    },
    call_part(c) {
        const part = { functionCall: { name: c.name, args: c.args ?? {}, ...(c.id ? { id: c.id } : {}) } };
        if (c.signature) part.thoughtSignature = c.signature;
        return part;
    },
    usage(turn, final) {
        const u = usage_of(turn);
        return final ? { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output }
                     : { promptTokenCount: u.input, totalTokenCount: u.input };
    },
    remember(s, turn) {
        s.sent.push({ signatures: (turn.calls ?? []).map((c) => c.signature) });
    },
    whole(res, turn, index, request, s) {
        gemini.remember(s, turn);
        const parts = [];
        if (turn.text) parts.push({ text: turn.text });
        for (const c of turn.calls ?? []) parts.push(gemini.call_part(c));
        send_json(res, 200, {
            candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
            usageMetadata: gemini.usage(turn, true), modelVersion: 'gemini-test', responseId: 'resp-1',
        });
    },
    stream(res, turn, index, request, s) {
        gemini.remember(s, turn);
        // Each event a GenerateContentResponse; text in pieces, each call whole; the last has the
        // finishReason and the final usage.
        const parts = pieces(turn.text ?? '', piece_size(turn)).map((text) => ({ text }));
        for (const c of turn.calls ?? []) parts.push(gemini.call_part(c));
        if (parts.length === 0) parts.push({ text: '' });
        const events = parts.map((part, i) => {
            const last = i === parts.length - 1;
            const candidate = { content: { role: 'model', parts: [part] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
            return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata: gemini.usage(turn, last), modelVersion: 'gemini-test' })}\r\n\r\n`;
        });
        send_stream(res, 'text/event-stream', events);
    },
    // The API's check of a function call turn and the function responses after it, and of the
    // thought signatures: the n-th model turn's calls must carry the ones its reply had.
    validate(request, s) {
        const contents = request.contents ?? [];
        const count = (c, kind) => (c?.parts ?? []).filter((p) => p[kind]).length;
        const model_turns = contents.filter((c) => c.role === 'model');
        for (let n = 0; n < model_turns.length && n < s.sent.length; ++n) {
            const calls = (model_turns[n].parts ?? []).filter((p) => p.functionCall);
            for (let k = 0; k < calls.length; ++k) {
                const want = s.sent[n].signatures[k];
                if (want !== undefined && calls[k].thoughtSignature !== want)
                    return `Function call is missing a thought_signature in functionCall parts (function call ` +
                           `${calls[k].functionCall.name}, model turn ${n}); send back the part's thoughtSignature unchanged.`;
            }
        }
        for (let i = 0; i < contents.length; ++i) {
            const calls = count(contents[i], 'functionCall');
            const responses = count(contents[i + 1], 'functionResponse');
            if ((calls || responses) && calls !== responses && contents[i].role === 'model')
                return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
        }
        return null;
    },
};

// ---- Ollama /api/chat -----------------------------------------------------------------------

const ollama = {
    error(turn) {
        return { error: turn.message ?? 'scripted error' };
    },
    calls(turn) {
        return (turn.calls ?? []).map((c, k) => ({
            ...(c.id ? { id: c.id } : {}), function: { index: k, name: c.name, arguments: c.args ?? {} },
        }));
    },
    last(turn, request, message) {
        const u = usage_of(turn);
        return { model: request.model, created_at: '2026-01-01T00:00:00Z', message, done_reason: 'stop', done: true,
                 total_duration: 1000, load_duration: 10, prompt_eval_count: u.input, eval_count: u.output };
    },
    whole(res, turn, index, request) {
        const calls = ollama.calls(turn);
        send_json(res, 200, ollama.last(turn, request, {
            role: 'assistant', content: turn.text ?? '', ...(calls.length ? { tool_calls: calls } : {}),
        }));
    },
    stream(res, turn, index, request) {
        const line = (value) => JSON.stringify(value) + '\n';
        const head = { model: request.model, created_at: '2026-01-01T00:00:00Z' };
        const events = pieces(turn.text ?? '', piece_size(turn))
            .map((content) => line({ ...head, message: { role: 'assistant', content }, done: false }));
        const calls = ollama.calls(turn);
        if (calls.length) events.push(line({ ...head, message: { role: 'assistant', content: '', tool_calls: calls }, done: false }));
        events.push(line(ollama.last(turn, request, { role: 'assistant', content: '' })));
        send_stream(res, 'application/x-ndjson', events);
    },
    streamed: (request) => request.stream !== false,
};

// ---- routing --------------------------------------------------------------------------------

// The API of a request path (after /scenario/<name>), and whether it asks for a stream.
function api_of(rest, url) {
    if (rest.endsWith('/chat/completions')) return { api: openai, name: 'openai' };
    if (rest.endsWith('/responses')) return { api: responses, name: 'responses' };
    if (rest.endsWith('/v1/messages')) return { api: anthropic, name: 'anthropic' };
    if (rest.endsWith('/api/chat')) return { api: ollama, name: 'ollama' };
    const g = /\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.exec(rest);
    if (g) {
        const streamed = g[1] === 'streamGenerateContent';
        if (streamed && url.searchParams.get('alt') !== 'sse') return { error: 'this server streams Gemini with alt=sse only' };
        return { api: { ...gemini, streamed: () => streamed }, name: 'gemini' };
    }
    return null;
}

function answer(req, res, s, name, found, text) {
    let request;
    try {
        request = JSON.parse(text);
    } catch {
        return send_json(res, 400, { error: { message: 'the body is not JSON' } });
    }
    const index = s.requests.length - 1;
    const invalid = found.api.validate?.(request, s);
    if (invalid) {
        log(`${name}: request ${index} refused: ${invalid}`);
        return send_json(res, 400, found.api.error({ status: 400, message: invalid }));
    }
    const turn = s.turns[index];
    if (!turn) {
        const message = `scenario ${name} has no turn ${index} (it has ${s.turns.length})`;
        log(message);
        return send_json(res, 400, { error: { message, type: 'invalid_request_error' } });
    }
    const reply = () => {
        if (turn.status) {
            const headers = {};
            if (turn.retry_after !== undefined && found.name !== 'gemini') headers['Retry-After'] = String(turn.retry_after);
            return send_json(res, turn.status, found.api.error(turn), headers);
        }
        if (found.api.streamed(request)) return found.api.stream(res, turn, index, request, s);
        return found.api.whole(res, turn, index, request, s);
    };
    if (!turn.delay_ms) return reply();
    const timer = setTimeout(reply, turn.delay_ms);
    res.on('close', () => {
        clearTimeout(timer);
        if (!res.writableEnded) log(`${name}: the client went away during turn ${index}'s delay`);
    });
}

function serve(req, res, text) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const parts = url.pathname.split('/');
    if (parts[1] !== 'scenario' || !parts[2]) return send_json(res, 404, { error: { message: `no route ${url.pathname}` } });
    const name = decodeURIComponent(parts[2]);
    const rest = '/' + parts.slice(3).join('/');
    const s = scenario(name);
    if (req.method === 'PUT' && rest === '/') {
        let script;
        try {
            script = JSON.parse(text);
        } catch {
            return send_json(res, 400, { error: { message: 'the script is not JSON' } });
        }
        s.turns = script.turns ?? [];
        s.requests = [];
        s.sent = [];
        return send_json(res, 200, { turns: s.turns.length });
    }
    if (req.method === 'GET' && rest === '/requests') {
        const body = '[' + s.requests.map((r) => JSON.stringify({ method: r.method, path: r.path, headers: r.headers })
            .replace(/}$/, `,"body":${r.body}}`)).join(',') + ']';
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        return res.end(body);
    }
    const found = req.method === 'POST' ? api_of(rest, url) : null;
    if (!found) return send_json(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    if (found.error) return send_json(res, 400, { error: { message: found.error } });
    const headers = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]]);
    let recorded_body = text;
    try {
        JSON.parse(text);
    } catch {
        recorded_body = JSON.stringify(text);
    }
    s.requests.push({ method: req.method, path: url.pathname + url.search, headers, body: recorded_body });
    log(`${name}: ${found.name} request ${s.requests.length - 1}`);
    answer(req, res, s, name, found, text);
}

let idle;
function stop(reason) {
    log(`stopping: ${reason}`);
    process.exit(0);
}
function keep_alive() {
    clearTimeout(idle);
    idle = setTimeout(() => stop('60 s without a request'), 60_000);
    idle.unref();
}

const server = http.createServer((req, res) => {
    keep_alive();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => serve(req, res, Buffer.concat(chunks).toString('utf8')));
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`port ${server.address().port}\n`);
    keep_alive();
});
process.stdin.on('end', () => stop('standard input ended'));
process.stdin.on('error', () => stop('standard input failed'));
process.stdin.resume();
