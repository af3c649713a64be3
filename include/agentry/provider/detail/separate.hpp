// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_SEPARATE_HPP
#define AGENTRY_PROVIDER_DETAIL_SEPARATE_HPP

// Header-only (the default) or separate compilation of the providers.
//
// Header-only: each provider header includes its definitions (provider/impl/*.ipp), so the
// wire structs' JSON readers and writers are compiled in every file that includes it.
//
// Separate compilation: define AGENTRY_SEPARATE_COMPILATION in every file of the program
// (the agentry::separate CMake target does), and compile <agentry/provider/src.hpp> in one
// file. The provider headers then declare the requests, parsers and stream assemblers, and
// that file defines them once.
//
// AGENTRY_DECL marks those definitions: `inline` header-only, nothing in the one file.

#if defined(AGENTRY_SEPARATE_COMPILATION)
#define AGENTRY_DECL
#else
#define AGENTRY_DECL inline
#endif

#endif
