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
// and stream assemblers, the loop's and the policies' functions, ...), and that file defines it
// once.
//
// AGENTRY_DECL marks those definitions: `inline` header-only, nothing in the one file.
//
// AGENTRY_TEMPLATE_DECL (on the declaration) and AGENTRY_TEMPLATE_DEF (on the definition) mark
// those only templates call (the agent's loop): header-only they are function templates with a
// defaulted parameter no call names, compiled only in a file that instantiates their callers;
// in the one file, plain functions as the others.

#if defined(AGENTRY_SEPARATE_COMPILATION)
#define AGENTRY_DECL
#define AGENTRY_TEMPLATE_DECL
#define AGENTRY_TEMPLATE_DEF
#else
#define AGENTRY_DECL inline
#define AGENTRY_TEMPLATE_DECL template <class = void>
#define AGENTRY_TEMPLATE_DEF template <class>
#endif

#endif
