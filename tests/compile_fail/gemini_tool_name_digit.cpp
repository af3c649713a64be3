// SPDX-License-Identifier: BSL-1.0
// expect: agentry: dialect::gemini: a tool name must start with a letter or an underscore
// names: 3d_render
#include <agentry/registry.hpp>

int render(int size) { return size; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::registry tools{agentry::tool<"3d_render", "Renders a scene.", "size">(render)};
#else
constexpr agentry::registry tools{agentry::tool<"render_3d", "Renders a scene.", "size">(render)};
#endif

int main() { return tools.definitions<agentry::dialect::gemini>().empty(); }
