// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_SRC_IPP
#define AGENTRY_JSON_IMPL_SRC_IPP

// The definitions of the JSON layer that are not templates (the regular expression engine,
// canonical texts, json::value and the run-time schema check), for separate compilation: included by src.hpp and provider/src.hpp, once
// in the program. The JSON reader uses them, so a program whose one file includes only some
// provider definitions (provider/impl/<name>.ipp) includes this file there too.

#include <agentry/detail/impl/text.ipp>
#include <agentry/json/impl/canonical.ipp>
#include <agentry/json/impl/reader.ipp>
#include <agentry/json/impl/schema_check.ipp>
#include <agentry/json/impl/value.ipp>
#include <agentry/json/impl/writer.ipp>
#include <agentry/regex/impl/pattern.ipp>

#endif
