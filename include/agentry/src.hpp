// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SRC_HPP
#define AGENTRY_SRC_HPP

// Everything agentry compiles once, for separate compilation (detail/separate.hpp): with
// AGENTRY_SEPARATE_COMPILATION defined in every file of the program, include this header in
// exactly one of them, e.g. a file of its own:
//
//   // agentry_src.cpp
//   #include <agentry/src.hpp>
//
// Header-only (the macro not defined) every header defines what it declares and this header
// adds nothing.

#include <agentry/json/impl/src.ipp>
#include <agentry/provider/src.hpp>

#if defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/src.ipp>
#include <agentry/select/impl/src.ipp>
#include <agentry/tool/impl/invoke.ipp>
#include <agentry/transport/impl/replay.ipp>
#endif

#endif
