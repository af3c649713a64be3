// SPDX-License-Identifier: BSL-1.0
// With AGENTRY_SEPARATE_COMPILATION the regular expression header declares the interface
// only: a file that includes it (or the JSON reader) does not compile the engine.
#include <agentry/json/reader.hpp>
#include <agentry/regex/pattern.hpp>

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#error "agentry: this test is compiled with AGENTRY_SEPARATE_COMPILATION"
#endif
#ifdef AGENTRY_REGEX_IMPL_PATTERN_IPP
#error "agentry: regex/pattern.hpp includes the engine (regex/impl/pattern.ipp) in separate compilation"
#endif

int main() {}
