// SPDX-License-Identifier: BSL-1.0
// With AGENTRY_SEPARATE_COMPILATION the regular expression header declares the interface
// only: a file that includes it (or the JSON reader) does not compile the engine.
#include <agentry/json/detail/regex.hpp>
#include <agentry/json/reader.hpp>

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#error "agentry: this test is compiled with AGENTRY_SEPARATE_COMPILATION"
#endif
#ifdef AGENTRY_JSON_IMPL_REGEX_IPP
#error "agentry: json/detail/regex.hpp includes the engine (json/impl/regex.ipp) in separate compilation"
#endif

int main() {}
