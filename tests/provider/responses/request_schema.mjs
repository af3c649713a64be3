// SPDX-License-Identifier: BSL-1.0
// Every request body agentry::openai_responses builds for the representative requests of
// samples.hpp, validated against CreateResponse of OpenAI's OpenAPI description.
//
//   node request_schema.mjs <path to agentry_responses_print_requests>
//
// The program prints one {"name","body"} object per line. Each body must
//  - validate against components.schemas.CreateResponse (ajv, JSON Schema 2020-12 as OpenAPI
//    3.1 uses it; `nullable: true` rewritten as the JSON Schema it means; discriminator and
//    x-* ignored: strict mode off);
//  - use only members the schema declares: at the top level, in each input item (by its type:
//    a message, function_call, function_call_output, reasoning), in the content of a
//    function_call_output (by its type), in each function tool, in reasoning and in a
//    json_schema text.format: the schema allows unknown members, so a misspelt one would
//    otherwise pass.
// A few wrong bodies must fail, so the check is not vacuous. The last bodies are the requests
// of an agent with a typed output; they must carry the tools and a strict json_schema format.
// Exit status: 0 all passed, 1 something failed, 77 skipped (ajv or the OpenAPI file missing).

import { declared as declared_in, member_check, openapi, problems_of, run } from "../openapi_check.mjs";

const { schemas, validate } = await openapi("CreateResponse", "agentry_responses_print_requests");
// Through the object alternatives of anyOf too.
const declared = (schema) => declared_in(schemas, schema, { anyOf: true });

const topLevel = declared(schemas.CreateResponse);
const itemMembers = {
    message: declared(schemas.EasyInputMessage),
    function_call: declared(schemas.FunctionToolCall),
    function_call_output: declared(schemas.FunctionCallOutputItemParam),
    reasoning: declared(schemas.ReasoningItem),
};
const outputContentMembers = {
    input_text: declared(schemas.InputTextContentParam),
    input_image: declared(schemas.InputImageContentParamAutoParam),
    input_file: declared(schemas.InputFileContentParam),
};
const functionToolMembers = declared(schemas.FunctionTool);
const reasoningMembers = declared(schemas.Reasoning);
const formatMembers = declared(schemas.TextResponseFormatJsonSchema);
const textMembers = declared(schemas.ResponseTextParam);

function undeclared(body) {
    const found = [];
    const check = member_check(found);
    check(body, topLevel, "");
    check(body.reasoning, reasoningMembers, "/reasoning");
    check(body.text, textMembers, "/text");
    if (body.text?.format?.type === "json_schema") check(body.text.format, formatMembers, "/text/format");
    (body.tools ?? []).forEach((t, i) => {
        if (t.type === "function") check(t, functionToolMembers, `/tools/${i}`);
    });
    (Array.isArray(body.input) ? body.input : []).forEach((item, i) => {
        const type = item.type ?? "message";
        const allowed = itemMembers[type];
        if (!allowed) return found.push(`/input/${i}/type (${type})`);
        check(item, allowed, `/input/${i}`);
        if (type === "function_call_output" && Array.isArray(item.output))
            item.output.forEach((c, j) => {
                const members = outputContentMembers[c.type];
                if (!members) return found.push(`/input/${i}/output/${j}/type (${c.type})`);
                check(c, members, `/input/${i}/output/${j}`);
            });
    });
    return found;
}

// Wrong bodies the check must refuse.
const user = { role: "user", content: "x" };
const wrong = {
    "a function_call_output without its output": { model: "m", input: [{ type: "function_call_output", call_id: "c" }] },
    "a function_call without call_id": { model: "m", input: [{ type: "function_call", name: "f", arguments: "{}" }] },
    "tool_choice not one of the words": { model: "m", input: [user], tool_choice: "sometimes" },
    "a misspelt member": { model: "m", input: [user], max_output_token: 5 },
    "a Chat Completions tool": {
        model: "m",
        input: [user],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
    },
    "a function tool without strict": {
        model: "m",
        input: [user],
        tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
    },
    "an output_text in an input message": {
        model: "m",
        input: [{ role: "assistant", content: [{ type: "output_text", text: "x" }] }],
    },
    "a json_schema format without its name": {
        model: "m",
        input: [user],
        text: { format: { type: "json_schema", schema: { type: "object" }, strict: true } },
    },
    "a misspelt member of a reasoning item": {
        model: "m",
        input: [{ type: "reasoning", id: "rs_1", summary: [], encrypted: "x" }],
    },
};
// The typed agent's requests carry the tools and the strict structured output together.
run({
    problems: problems_of(validate, undeclared),
    wrong,
    last: (bodies) => {
        const typed = bodies.filter(({ name }) => name.startsWith("an agent with a typed output"));
        return typed.length === 0 || !typed.every(({ body }) => body.tools && body.text?.format?.strict === true)
                   ? "the typed agent's requests are missing, or lack the tools or the strict text.format"
                   : null;
    },
});
