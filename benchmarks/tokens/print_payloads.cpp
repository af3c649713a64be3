// SPDX-License-Identifier: BSL-1.0
// Prints the OpenAI tools payloads of the token benchmark's tools (tools.hpp), one line each:
//   <dialect>/<set><TAB><the tools array registry::definitions<D>() gives>
// for the dialects openai, openai_strict and their with_natural_bounds variants
// (openai_natural, openai_strict_natural), and the sets ticket_add, flights and all.
// tokens.mjs counts their bytes and tokens.

#include "tools.hpp"

#include <cstdio>
#include <string_view>

namespace {

template <class D>
void print(std::string_view dialect) {
    const auto line = [&](std::string_view set, std::string_view payload) {
        std::printf("%.*s/%.*s\t%.*s\n", int(dialect.size()), dialect.data(), int(set.size()), set.data(),
                    int(payload.size()), payload.data());
    };
    line("ticket_add", bench::ticket_add_tools.definitions<D>());
    line("flights", bench::flight_tools.definitions<D>());
    line("all", bench::all_tools.definitions<D>());
}

} // namespace

int main() {
    using namespace agentry::dialect;
    print<openai>("openai");
    print<openai_strict>("openai_strict");
    print<with_natural_bounds<openai>>("openai_natural");
    print<with_natural_bounds<openai_strict>>("openai_strict_natural");
}
