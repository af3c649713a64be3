// SPDX-License-Identifier: BSL-1.0
// With AGENTRY_SEPARATE_COMPILATION the provider headers only declare what reads and writes
// JSON: a file that includes them compiles neither the JSON reader nor the writer.
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/openai_responses.hpp>

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#error "agentry: this test is compiled with AGENTRY_SEPARATE_COMPILATION"
#endif
#ifdef AGENTRY_JSON_READER_HPP
#error "agentry: a provider header includes <agentry/json/reader.hpp> in separate compilation"
#endif
#ifdef AGENTRY_JSON_WRITER_HPP
#error "agentry: a provider header includes <agentry/json/writer.hpp> in separate compilation"
#endif

static_assert(agentry::provider<agentry::anthropic> && agentry::provider<agentry::gemini> &&
              agentry::provider<agentry::ollama> && agentry::provider<agentry::openai> &&
              agentry::provider<agentry::openai_responses>);

int main() {}
