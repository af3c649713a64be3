// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_CONFIG_HPP
#define AGENTRY_CONFIG_HPP

// Compiler workarounds, in one place. Each AGENTRY_WORKAROUND_* macro is 1 on the compilers
// that need the workaround and 0 elsewhere; the code that works around the defect includes
// this header and names the macro beside the workaround, so a fixed compiler is one edit here.
// Below every layer: includes nothing.

// Clang 14 miscompiles reads of the members of a class-type template argument that has
// padding: the values read are wrong, and the compiler can crash. Copy the argument into a
// `static constexpr` member and read that instead (agentry::agent reads its loop_config so).
// Newer Clang versions are not tested here.
#if defined(__clang__) && __clang_major__ <= 14
#define AGENTRY_WORKAROUND_CLASS_NTTP_READS 1
#else
#define AGENTRY_WORKAROUND_CLASS_NTTP_READS 0
#endif

// Clang 14 with libstdc++ 12 cannot construct std::string in a constant expression. No macro:
// agentry never does so on any compiler, so schemas are the same text everywhere (see
// holds_string in schema/json_schema.hpp).

#endif
