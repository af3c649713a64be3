#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Writes a translation unit for the compile-time cost benchmark of agentry.

    generate.py N [-o FILE]        N tools in one constexpr agentry::registry
    generate.py --baseline [-o FILE]  only #include <agentry/agentry.hpp> and an empty main
    generate.py N --describe       the same N tools, their enums described with
                                   BOOST_DESCRIBE_ENUM (names from the descriptors, no scan)
    generate.py N --call [--dialect D]  the same N tools in one registry; main() reads one
                                   dialect's definitions (default anthropic) and calls
                                   registry::call(name, arguments), so the argument readers,
                                   the result writers and the dispatch are compiled too
    generate.py N --glaze          the same N parameter structs as plain structs for glaze
                                   2.9.5 (std::string for sized_string, int for in_range, the
                                   same enums, optional, vector and nested struct); main()
                                   writes glz::write_json_schema<T>() and runs glz::read_json
                                   for each: the work of --call with glaze doing it

Each tool takes its own 5-field aggregate (string, integer, optional<double>, vector of
strings, a per-tool enum), with some variation: every 3rd tool has a sized_string<1, 64>
instead of a std::string, every 4th an in_range<int, 0, 100> instead of a plain integer,
every 5th a nested struct instead of the vector. Each tool returns its own small result
struct (so the MCP dialect also writes an outputSchema).

All N tools are registered in one constexpr agentry::registry, `bench::tools`, and every
dialect's definitions are computed from it, except where that registry exceeds a dialect's
per-request limits (include/agentry/schema/dialect.hpp: OpenAI and OpenAI strict accept at
most 128 tools, Anthropic strict at most 20 tools and 24 optional parameters in all), which
agentry rejects at compile time by design ("split it"). For such a dialect the payload is
computed from sub-registries of consecutive tools within the limits, as a user would split
them; the generated file lists them in a comment, and --no-split keeps the single registry
for every dialect (which then does not compile for those N).

main() reads the definitions of all 7 dialects at run time: it prints the sum of their
sizes and a checksum of their characters, and with an argument prints the payloads, so the
texts are emitted into the object file and nothing is optimised away.

Python 3 standard library only.
"""

import argparse
import sys

DIALECTS = [
    "standard",
    "openai",
    "openai_strict",
    "anthropic",
    "anthropic_strict",
    "gemini",
    "mcp",
]

TEXT_NAMES = ["city", "query", "title", "path", "label", "address", "topic"]
COUNT_NAMES = ["count", "limit", "page", "days", "retries", "offset"]
RATIO_NAMES = ["ratio", "threshold", "weight", "temperature", "score"]
LIST_NAMES = ["tags", "keywords", "recipients", "fields", "languages"]
MODE_NAMES = ["mode", "unit", "priority", "sort_order", "style"]
INT_TYPES = ["int", "long", "unsigned", "std::int64_t", "short"]
ENUMERATORS = [
    ["a", "b", "c"],
    ["low", "medium", "high"],
    ["metric", "imperial"],
    ["asc", "desc"],
    ["fast", "balanced", "thorough", "exhaustive"],
]


# Per-request limits of the dialects, as in include/agentry/schema/dialect.hpp:
# (max tools, max optional parameters over all tools). None: no limit.
LIMITS = {
    "openai": (128, None),
    "openai_strict": (128, None),
    "anthropic_strict": (20, 24),
}


def pick(pool, i):
    return pool[i % len(pool)]


def is_nested(i):
    return i % 5 == 4


def optional_parameters(i):
    """Optional properties of tool i's parameters (the ratio, and the nested struct's level)."""
    return 1 + (1 if is_nested(i) else 0)


def chunks(n, dialect):
    """Consecutive ranges [begin, end) of tools that fit one request of the dialect."""
    max_tools, max_optional = LIMITS.get(dialect, (None, None))
    ranges = []
    begin = 0
    count = optional = 0
    for i in range(n):
        o = optional_parameters(i)
        over = (max_tools is not None and count + 1 > max_tools) or (
            max_optional is not None and optional + o > max_optional
        )
        if over:
            ranges.append((begin, i))
            begin, count, optional = i, 0, 0
        count += 1
        optional += o
    ranges.append((begin, n))
    return ranges


STANDARD_HEADERS = ["cstddef", "cstdint", "cstdio", "optional", "string", "string_view", "vector"]


def parameter_source(i, text_type, count_type):
    """Tool i's enum, nested struct (every 5th tool) and parameter struct, with the given
    types of its text and count members."""
    lines = [f"enum class kind_{i} {{ {', '.join(pick(ENUMERATORS, i))} }};"]
    nested = is_nested(i)
    if nested:
        lines.append(f"struct nested_{i} {{ std::string label; bool enabled; std::optional<int> level; }};")
    list_type = f"nested_{i}" if nested else "std::vector<std::string>"
    list_name = "options" if nested else pick(LIST_NAMES, i)
    lines.append(f"struct args_{i} {{")
    lines.append(f"    {text_type} {pick(TEXT_NAMES, i)};")
    lines.append(f"    {count_type} {pick(COUNT_NAMES, i + 1)};")
    lines.append(f"    std::optional<double> {pick(RATIO_NAMES, i + 2)};")
    lines.append(f"    {list_type} {list_name};")
    lines.append(f"    kind_{i} {pick(MODE_NAMES, i + 3)};")
    lines.append("};")
    return lines


def tool_source(i, describe=False):
    """Declarations and the function of tool i."""
    text_type = "agentry::sized_string<1, 64>" if i % 3 == 1 else "std::string"
    count_type = "agentry::in_range<int, 0, 100>" if i % 4 == 2 else pick(INT_TYPES, i)
    lines = parameter_source(i, text_type, count_type)
    if describe:
        lines.insert(1, f"BOOST_DESCRIBE_ENUM(kind_{i}, {', '.join(pick(ENUMERATORS, i))})")
    lines.append(f"struct args_{i}_result {{ std::string summary; int code; }};")
    lines.append(f"inline args_{i}_result f{i}(const args_{i}&) {{ return {{\"ok\", {i}}}; }}")
    return "\n".join(lines)


def registry_source(name, tools):
    """A constexpr agentry::registry of the tools numbered in `tools`."""
    return [f"constexpr agentry::registry {name}{{",
            ",\n".join(f"    {tool_expression(i)}" for i in tools),
            "};",
            ""]


def tool_expression(i):
    return f'agentry::tool<"tool_{i}", "Description {i}">(f{i})'


def translation_unit(n, split=True, describe=False):
    plan = {d: (chunks(n, d) if split else [(0, n)]) for d in DIALECTS}
    parts = sorted({r for ranges in plan.values() for r in ranges if r != (0, n)})
    out = []
    out.append(f"// Generated by benchmarks/compile/generate.py {n}{'' if split else ' --no-split'}: "
               f"{n} tools in one registry, 7 dialects.")
    for d in DIALECTS:
        if plan[d] != [(0, n)]:
            out.append(f"// {d}: {n} tools exceed its per-request limits; its definitions come from "
                       f"{len(plan[d])} sub-registries: " + ", ".join(f"tools {b}..{e - 1}" for b, e in plan[d]))
    out.append("#include <agentry/agentry.hpp>")
    out.append("")
    if describe:
        out.append("#include <boost/describe/enum.hpp>")
        out.append("")
    out.extend(f"#include <{h}>" for h in STANDARD_HEADERS)
    out.append("")
    out.append("namespace bench {")
    out.append("")
    for i in range(n):
        out.append(tool_source(i, describe))
        out.append("")
    out.extend(registry_source("tools", range(n)))
    for b, e in parts:
        out.extend(registry_source(f"tools_{b}_{e - 1}", range(b, e)))
    out.append("} // namespace bench")
    out.append("")
    out.append(f"static_assert(bench::tools.size() == {n});")
    out.append("")
    out.append("int main(int argc, char**) {")
    out.append("    const std::string_view payloads[] = {")
    for d in DIALECTS:
        for b, e in plan[d]:
            registry = "tools" if (b, e) == (0, n) else f"tools_{b}_{e - 1}"
            out.append(f"        bench::{registry}.definitions<agentry::dialect::{d}>(),")
    out.append("    };")
    out.append("    std::size_t total = 0;")
    out.append("    unsigned long checksum = 0;")
    out.append("    for (std::string_view p : payloads) {")
    out.append("        total += p.size();")
    out.append("        for (char c : p) checksum = checksum * 31 + (unsigned char)c;")
    out.append("        if (argc > 1) std::printf(\"%.*s\\n\", (int)p.size(), p.data());")
    out.append("    }")
    out.append("    std::printf(\"%zu bytes, checksum %lu\\n\", total, checksum);")
    out.append("    return total == 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def call_unit(n, dialect):
    out = []
    out.append(f"// Generated by benchmarks/compile/generate.py {n} --call --dialect {dialect}: {n} tools in one "
               f"registry, the {dialect} definitions and registry::call.")
    out.append("#include <agentry/agentry.hpp>")
    out.append("")
    out.extend(f"#include <{h}>" for h in STANDARD_HEADERS)
    out.append("")
    out.append("namespace bench {")
    out.append("")
    for i in range(n):
        out.append(tool_source(i))
        out.append("")
    out.extend(registry_source("tools", range(n)))
    out.append("} // namespace bench")
    out.append("")
    out.append(f"static_assert(bench::tools.size() == {n});")
    out.append("")
    out.append("int main(int argc, char** argv) {")
    out.append(f"    const std::string_view definitions = bench::tools.definitions<agentry::dialect::{dialect}>();")
    out.append("    const std::string_view name = argc > 1 ? argv[1] : \"tool_0\";")
    out.append("    const std::string_view arguments = argc > 2 ? argv[2] : \"{}\";")
    out.append("    const agentry::tool_result result = bench::tools.call(name, arguments);")
    out.append("    std::printf(\"%zu %.*s\\n\", definitions.size(), (int)result.content.size(), result.content.data());")
    out.append("    return result.status == agentry::tool_status::ok ? 0 : 1;")
    out.append("}")
    return "\n".join(out) + "\n"


def glaze_source(i):
    """Tool i's parameter struct as a plain struct (std::string and int for the constrained
    members)."""
    count_type = "int" if i % 4 == 2 else pick(INT_TYPES, i)
    return "\n".join(parameter_source(i, "std::string", count_type))


def glaze_meta(i):
    enumerators = pick(ENUMERATORS, i)
    pairs = ", ".join(f'"{e}", bench::kind_{i}::{e}' for e in enumerators)
    return (f"template <>\nstruct glz::meta<bench::kind_{i}> {{\n    using enum bench::kind_{i};\n"
            f"    static constexpr auto value = enumerate({pairs});\n}};")


def glaze_unit(n):
    out = []
    out.append(f"// Generated by benchmarks/compile/generate.py {n} --glaze: the {n} parameter structs of "
               f"`generate.py {n} --call` for glaze 2.9.5, a JSON Schema and a read_json for each.")
    out.append("#include <glaze/glaze.hpp>")
    out.append("#include <glaze/json/schema.hpp>")
    out.append("")
    out.extend(f"#include <{h}>" for h in STANDARD_HEADERS)
    out.append("")
    out.append("namespace bench {")
    out.append("")
    for i in range(n):
        out.append(glaze_source(i))
        out.append("")
    out.append("} // namespace bench")
    out.append("")
    for i in range(n):
        out.append(glaze_meta(i))
        out.append("")
    out.append("namespace bench {")
    out.append("")
    out.append("template <class T>")
    out.append("std::size_t schema_and_read(const std::string& input) {")
    out.append("    const auto schema = glz::write_json_schema<T>();")
    out.append("    T value{};")
    out.append("    const auto error = glz::read_json(value, input);")
    out.append("    return (schema ? schema->size() : 0) + (error ? 1 : 0);")
    out.append("}")
    out.append("")
    out.append("} // namespace bench")
    out.append("")
    out.append("int main(int argc, char** argv) {")
    out.append("    const std::string input = argc > 1 ? argv[1] : \"{}\";")
    out.append("    std::size_t total = 0;")
    for i in range(n):
        out.append(f"    total += bench::schema_and_read<bench::args_{i}>(input);")
    out.append("    std::printf(\"%zu\\n\", total);")
    out.append("    return total == 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def baseline_unit():
    return (
        "// Generated by benchmarks/compile/generate.py --baseline: the include cost alone.\n"
        "#include <agentry/agentry.hpp>\n"
        "\n"
        "int main() { return 0; }\n"
    )


def main(argv):
    parser = argparse.ArgumentParser(description="Write the agentry compile-time benchmark TU.")
    parser.add_argument("n", nargs="?", type=int, help="number of tools")
    parser.add_argument("--baseline", action="store_true", help="only include <agentry/agentry.hpp>")
    parser.add_argument("--no-split", action="store_true",
                        help="compute every dialect from the single registry, even beyond its limits")
    parser.add_argument("--describe", action="store_true",
                        help="describe the enums with BOOST_DESCRIBE_ENUM")
    parser.add_argument("--call", action="store_true",
                        help="one dialect's definitions and registry::call in main()")
    parser.add_argument("--dialect", default="anthropic", choices=DIALECTS,
                        help="the dialect of --call (default: anthropic)")
    parser.add_argument("--glaze", action="store_true",
                        help="the parameter structs for glaze 2.9.5: schema and read_json of each")
    parser.add_argument("-o", "--output", help="output file (default: standard output)")
    args = parser.parse_args(argv)
    if args.baseline == (args.n is not None):
        parser.error("give either N or --baseline")
    if args.n is not None and args.n < 1:
        parser.error("N must be at least 1")
    if args.call and args.glaze:
        parser.error("give at most one of --call and --glaze")
    if args.baseline:
        text = baseline_unit()
    elif args.call:
        text = call_unit(args.n, args.dialect)
    elif args.glaze:
        text = glaze_unit(args.n)
    else:
        text = translation_unit(args.n, split=not args.no_split, describe=args.describe)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
