// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::elicit<T>: the field in form_field<...> is not a string, a number, an integer, a boolean, an enum or a std::vector or std::set of an enum (or a std::optional of one): elicitation takes flat objects of primitive fields and lists of choices
// errors: at most 1
// names: address
#include <agentry/mcp/elicit.hpp>

#include <optional>
#include <string>

struct postal_address {
    std::string street;
    std::string city;
};

#ifdef AGENTRY_COMPILE_FAIL
// A nested struct: a form has no place for it.
struct delivery {
    std::string name;
    postal_address address;
};
#else
struct delivery {
    std::string name;
    std::string street;
    std::optional<std::string> city;
};
#endif

int main() {
    const auto answer = agentry::mcp::elicit<delivery>("Where to?");
    return answer.error ? 0 : 1;
}
