// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_SRC_HPP
#define AGENTRY_PROVIDER_SRC_HPP

// The definitions of every provider, for separate compilation (detail/separate.hpp): with
// AGENTRY_SEPARATE_COMPILATION defined in every file of the program, include this header in
// exactly one of them, e.g. a file of its own:
//
//   // agentry_providers.cpp
//   #include <agentry/provider/src.hpp>
//
// A program that uses only some providers may include only their impl/<name>.ipp there instead
// (each brings the JSON layer's definitions, json/impl/src.ipp, which the providers use, and
// complete()'s, impl/turn.ipp).
// Header-only (the macro not defined) the provider headers define everything themselves and
// this header adds nothing.

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/openai_responses.hpp>

#if defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/src.ipp>
#include <agentry/provider/impl/anthropic.ipp>
#include <agentry/provider/impl/gemini.ipp>
#include <agentry/provider/impl/ollama.ipp>
#include <agentry/provider/impl/openai.ipp>
#include <agentry/provider/impl/openai_responses.ipp>
#include <agentry/provider/impl/turn.ipp>
#endif

#endif
