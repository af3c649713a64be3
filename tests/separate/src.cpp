// SPDX-License-Identifier: BSL-1.0
// What agentry compiles once, compiled once for the whole program.
#include <agentry/src.hpp>
