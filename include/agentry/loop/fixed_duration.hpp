// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_FIXED_DURATION_HPP
#define AGENTRY_LOOP_FIXED_DURATION_HPP

// agentry::fixed_duration lives with the tool policies, the lowest layer that uses it; this
// header keeps the loop's include path working.

#include <agentry/policy/fixed_duration.hpp>

#endif
