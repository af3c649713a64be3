// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_SEPARATE_HPP
#define AGENTRY_DETAIL_SEPARATE_HPP

// Header-only (the default) or separate compilation.
//
// Header-only: each header includes its definitions (the impl/*.ipp beside it), so, e.g., a
// provider's wire structs' JSON readers and writers are compiled in every file that includes it.
//
// Separate compilation: define AGENTRY_SEPARATE_COMPILATION in every file of the program
// (the agentry::separate_compilation CMake target does), and compile <agentry/src.hpp> in one
// file. The headers then declare what is not a template (the providers' requests, parsers
// and stream assemblers, ...), and that file defines it once.
//
// AGENTRY_DECL marks those definitions: `inline` header-only, nothing in the one file.

#if defined(AGENTRY_SEPARATE_COMPILATION)
#define AGENTRY_DECL
#else
#define AGENTRY_DECL inline
#endif

#endif
