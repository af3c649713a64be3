// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_SRC_IPP
#define AGENTRY_LOOP_IMPL_SRC_IPP

// The definitions of the loop and the policies that are not templates, for separate
// compilation: included by src.hpp, once in the program. A program whose one file includes only
// some provider definitions (provider/impl/<name>.ipp) includes this file there too when it runs
// an agent.

#include <agentry/loop/impl/context.ipp>
#include <agentry/loop/impl/detect.ipp>
#include <agentry/loop/impl/dynamic_tools.ipp>
#include <agentry/loop/impl/engine.ipp>
#include <agentry/loop/impl/json_pointer.ipp>
#include <agentry/loop/impl/large_results.ipp>
#include <agentry/loop/impl/nested.ipp>
#include <agentry/loop/impl/output.ipp>
#include <agentry/loop/impl/plan.ipp>
#include <agentry/loop/impl/replay.ipp>
#include <agentry/loop/impl/summary.ipp>
#include <agentry/policy/impl/approval.ipp>
#include <agentry/policy/impl/layers.ipp>
#include <agentry/policy/impl/threads.ipp>
#include <agentry/policy/impl/token_bucket.ipp>
#include <agentry/tool/impl/invoke.ipp>

#endif
