// SPDX-License-Identifier: BSL-1.0
// With PROVIDER_BENCH_SEPARATE_COMPILATION (or LOOP_BENCH_SEPARATE_COMPILATION): what agentry
// compiles once, compiled once for the binary (include/agentry/detail/separate.hpp).
#include <agentry/src.hpp>
