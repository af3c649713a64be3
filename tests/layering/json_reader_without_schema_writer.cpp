// SPDX-License-Identifier: BSL-1.0
// Reading JSON needs the schema layer's types and classification, not the schema text writer.
#include <agentry/json/reader.hpp>

#ifdef AGENTRY_SCHEMA_JSON_SCHEMA_HPP
#error "agentry: <agentry/json/reader.hpp> includes the schema writer <agentry/schema/json_schema.hpp>"
#endif

int main() {}
