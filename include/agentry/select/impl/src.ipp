// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_SRC_IPP
#define AGENTRY_SELECT_IMPL_SRC_IPP

// The definitions of the selection layer that are not templates, for separate compilation:
// included by src.hpp, once in the program.

#include <agentry/select/impl/bm25.ipp>
#include <agentry/select/impl/catalog.ipp>
#include <agentry/select/impl/embedding.ipp>
#include <agentry/select/impl/embeddings.ipp>
#include <agentry/select/impl/learned.ipp>
#include <agentry/select/impl/selector.ipp>
#include <agentry/select/impl/tool_search.ipp>

#endif
