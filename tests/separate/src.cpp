// SPDX-License-Identifier: BSL-1.0
// The providers' definitions, compiled once for the whole program.
#include <agentry/provider/src.hpp>
