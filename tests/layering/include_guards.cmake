# SPDX-License-Identifier: BSL-1.0
# Every header under INCLUDE_DIR opens (after its SPDX line and comments) with the include guard named after its path
# (agentry/json/reader.hpp: AGENTRY_JSON_READER_HPP), which the layering tests rely on, and has
# no #pragma once.
file(GLOB_RECURSE headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/*.hpp)
set(wrong "")
foreach(header IN LISTS headers)
    string(TOUPPER "AGENTRY_${header}" guard)
    string(REGEX REPLACE "[/.]" "_" guard "${guard}")
    file(READ ${INCLUDE_DIR}/${header} text)
    if(NOT text MATCHES "^// SPDX-License-Identifier: BSL-1.0\n(//[^\n]*\n)*#ifndef ${guard}\n#define ${guard}\n"
       OR text MATCHES "#pragma once" OR NOT text MATCHES "\n#endif\n$")
        list(APPEND wrong "agentry/${header} (expected #ifndef ${guard} / #define ${guard} after the first comments, #endif last)")
    endif()
endforeach()
if(wrong)
    list(JOIN wrong "\n  " wrong)
    message(FATAL_ERROR "include guards:\n  ${wrong}")
endif()
list(LENGTH headers n)
message("include guards: ${n} headers, all named")
