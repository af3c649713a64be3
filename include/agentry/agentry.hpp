#ifndef AGENTRY_AGENTRY_HPP
#define AGENTRY_AGENTRY_HPP

// The whole public API of agentry.

#include <agentry/json/error.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/schema/json_schema.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/registry.hpp>

#endif
