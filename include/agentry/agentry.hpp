// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_AGENTRY_HPP
#define AGENTRY_AGENTRY_HPP

// The core of agentry: reflection, schemas, the JSON reader and writer, tools and the registry.
// The other parts are included where they are used, as each costs compile time in every file
// that includes it: <agentry/agent.hpp> (the loop), <agentry/provider/openai.hpp> and the
// other providers (2 to 3.5 s each with g++-12), <agentry/transport/curl.hpp> (libcurl,
// target agentry::curl) and <agentry/mcp/...> (target agentry::mcp).

#include <agentry/json/error.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/enum_titles.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/schema/json_schema.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/registry.hpp>
#include <agentry/version.hpp>

#endif
