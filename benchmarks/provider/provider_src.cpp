// SPDX-License-Identifier: BSL-1.0
// With PROVIDER_BENCH_SEPARATE_COMPILATION (or LOOP_BENCH_SEPARATE_COMPILATION): the providers,
// compiled once for the binary (include/agentry/provider/detail/separate.hpp).
#include <agentry/provider/src.hpp>
