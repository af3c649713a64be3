// SPDX-License-Identifier: BSL-1.0
// Every request body agentry::openai builds for the representative requests of samples.hpp,
// validated against CreateChatCompletionRequest of OpenAI's OpenAPI description.
//
//   node request_schema.mjs <path to agentry_openai_print_requests>
//
// The program prints one {"name","body"} object per line. Each body must
//  - validate against components.schemas.CreateChatCompletionRequest (ajv, JSON Schema
//    2020-12 as OpenAPI 3.1 uses it; `nullable: true`, an OpenAPI 3.0 keyword the file still
//    has, is rewritten as the JSON Schema it means; other OpenAPI keywords such as
//    discriminator and x-* are ignored: strict mode off);
//  - use only members the schema declares, at the top level, in each message (by role), in
//    each tool call, in stream_options and in a json_schema response_format (Structured
//    Outputs): the schema allows unknown members, so a misspelt one would otherwise pass.
// Bodies using a member the schema marks deprecated are listed (max_tokens, for servers that
// know nothing else), not failed. A few wrong bodies must fail, so the check is not vacuous.
// The last bodies are the requests of an agent with a typed output; they must carry the tools
// and a strict json_schema response_format.
// Exit status: 0 all passed, 1 something failed, 77 skipped (ajv or the OpenAPI file missing).

import { declared as declared_in, member_check, openapi, problems_of, run } from "../openapi_check.mjs";

const { schemas, validate } = await openapi("CreateChatCompletionRequest", "agentry_openai_print_requests");
const declared = (schema, options) => declared_in(schemas, schema, options);

const deprecatedTop = new Set();
const topLevel = declared(schemas.CreateChatCompletionRequest, { deprecated: deprecatedTop });
const messageMembers = {
    developer: declared(schemas.ChatCompletionRequestDeveloperMessage),
    system: declared(schemas.ChatCompletionRequestSystemMessage),
    user: declared(schemas.ChatCompletionRequestUserMessage),
    assistant: declared(schemas.ChatCompletionRequestAssistantMessage),
    tool: declared(schemas.ChatCompletionRequestToolMessage),
};
const toolCallMembers = declared(schemas.ChatCompletionMessageToolCall);
const toolCallFunctionMembers = declared(schemas.ChatCompletionMessageToolCall.properties.function);
const streamOptionMembers = declared(schemas.ChatCompletionStreamOptions.anyOf.find((s) => s.type === "object"));
const responseFormatMembers = declared(schemas.ResponseFormatJsonSchema);
const jsonSchemaMembers = declared(schemas.ResponseFormatJsonSchema.properties.json_schema);

function undeclared(body) {
    const found = [];
    const check = member_check(found);
    check(body, topLevel, "");
    check(body.stream_options, streamOptionMembers, "/stream_options");
    if (body.response_format?.type === "json_schema") {
        check(body.response_format, responseFormatMembers, "/response_format");
        check(body.response_format.json_schema, jsonSchemaMembers, "/response_format/json_schema");
    }
    (body.messages ?? []).forEach((m, i) => {
        const allowed = messageMembers[m.role];
        if (!allowed) return found.push(`/messages/${i}/role (${m.role})`);
        check(m, allowed, `/messages/${i}`);
        (m.tool_calls ?? []).forEach((c, j) => {
            check(c, toolCallMembers, `/messages/${i}/tool_calls/${j}`);
            check(c.function, toolCallFunctionMembers, `/messages/${i}/tool_calls/${j}/function`);
        });
    });
    return found;
}

// Wrong bodies the check must refuse.
const wrong = {
    "a tool message without tool_call_id": { model: "m", messages: [{ role: "tool", content: "5" }] },
    "tool_choice not one of the words": { model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "sometimes" },
    "a tool call without its type": {
        model: "m",
        messages: [{ role: "assistant", content: null, tool_calls: [{ id: "c", function: { name: "f", arguments: "{}" } }] }],
    },
    "a misspelt member": { model: "m", messages: [{ role: "user", content: "x" }], max_completion_token: 5 },
    "a message member of another role": { model: "m", messages: [{ role: "user", content: "x", tool_call_id: "c" }] },
    "no messages": { model: "m", messages: [] },
    "a json_schema response_format without its name": {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { schema: { type: "object" }, strict: true } },
    },
    "a misspelt member of json_schema": {
        model: "m",
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "object" }, strickt: true } },
    },
};
// The typed agent's requests carry the tools and the strict structured output together.
run({
    problems: problems_of(validate, undeclared),
    wrong,
    note: (body) => {
        const old = Object.keys(body).filter((k) => deprecatedTop.has(k));
        return old.length ? ` (deprecated members: ${old.join(", ")})` : "";
    },
    last: (bodies) => {
        const typed = bodies.filter(({ name }) => name.startsWith("an agent with a typed output"));
        return typed.length === 0 || !typed.every(({ body }) => body.tools && body.response_format?.json_schema?.strict === true)
                   ? "the typed agent's requests are missing, or lack the tools or the strict response_format"
                   : null;
    },
});
