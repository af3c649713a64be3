// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_VERSION_HPP
#define AGENTRY_VERSION_HPP

// The version of these headers. install.package_metadata checks it against the CMake
// project's version. Below every layer: includes nothing.

#define AGENTRY_VERSION_MAJOR 0
#define AGENTRY_VERSION_MINOR 1
#define AGENTRY_VERSION_PATCH 0

#define AGENTRY_DETAIL_TEXT(x) #x
#define AGENTRY_DETAIL_VERSION_TEXT(major, minor, patch) \
    AGENTRY_DETAIL_TEXT(major) "." AGENTRY_DETAIL_TEXT(minor) "." AGENTRY_DETAIL_TEXT(patch)
/// "major.minor.patch", a string literal.
#define AGENTRY_VERSION_STRING \
    AGENTRY_DETAIL_VERSION_TEXT(AGENTRY_VERSION_MAJOR, AGENTRY_VERSION_MINOR, AGENTRY_VERSION_PATCH)

/// major * 10000 + minor * 100 + patch, for `#if AGENTRY_VERSION >= 10200` (1.2.0 or newer).
#define AGENTRY_VERSION (AGENTRY_VERSION_MAJOR * 10000 + AGENTRY_VERSION_MINOR * 100 + AGENTRY_VERSION_PATCH)

#endif
