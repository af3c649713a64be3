# SPDX-License-Identifier: BSL-1.0
# Compiles one translation unit for a ctest test (see agentry_compile_test).
# -DCXX= compiler, -DSOURCE= file, -DMODE=pass|fail, -DINCLUDES= list (the project's own
# include directory first), -DDEFINE= optional macro, -DFLAGS= optional list of further flags,
# -DMAX_ERRORS= optional limit on the number of errors a failing compile reports (the
# diagnostic and its follow-on errors), -DNAMES= optional list of names (a tool's, a field
# path) the failing compile must show as text: GCC prints a name as fixed_string<N>{"name"},
# Clang 14 as the characters 'n', 'a', 'm', 'e'.
# -DPCH_DIR= optional (Clang only): the #include lines that open SOURCE (before its first other
# line, comments and blank lines aside) are precompiled once into PCH_DIR, shared by every case
# that opens with the same lines and flags, and SOURCE is compiled with that header: the same
# headers in the same order, parsed once. Without a usable header it compiles as without PCH_DIR.
# The lists arrive joined with '|'.
string(REPLACE "|" ";" INCLUDES "${INCLUDES}")
string(REPLACE "|" ";" FLAGS "${FLAGS}")
string(REPLACE "|" ";" NAMES "${NAMES}")
list(GET INCLUDES 0 project_include)
set(args -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I${project_include})
list(LENGTH INCLUDES n)
if(n GREATER 1)
    list(SUBLIST INCLUDES 1 -1 others)
    # The compiler's own system directories stay where it searches them: -isystem /usr/include
    # would put it before the C++ library's wrappers (#include_next <stdlib.h> then fails).
    list(REMOVE_ITEM others /usr/include /usr/local/include)
    foreach(dir IN LISTS others)
        list(APPEND args -isystem ${dir})
    endforeach()
endif()
if(DEFINE)
    list(APPEND args -D${DEFINE})
endif()
list(APPEND args ${FLAGS})

# agentry_pch(<out var>): the precompiled header of SOURCE's opening #include lines, built under
# a lock by the first case that needs it; empty when there is none.
function(agentry_pch out)
    set(${out} "" PARENT_SCOPE)
    file(STRINGS ${SOURCE} lines)
    set(includes "")
    foreach(line IN LISTS lines)
        if(line MATCHES "^#include [<\"]")
            string(APPEND includes "${line}\n")
        elseif(NOT line MATCHES "^[ \t]*(//.*)?$")
            break()
        endif()
    endforeach()
    if(includes STREQUAL "")
        return()
    endif()
    set(pch_args ${args})
    list(REMOVE_ITEM pch_args -fsyntax-only -D${DEFINE})
    # The header's own template instantiations (those its inline functions need) are done once,
    # in the header, instead of in every case: a third of the time per case.
    list(APPEND pch_args -fpch-instantiate-templates)
    string(SHA1 key "${CXX}|${pch_args}|${includes}")
    set(base ${PCH_DIR}/${key})
    file(MAKE_DIRECTORY ${PCH_DIR})
    file(LOCK ${base}.lock GUARD FUNCTION TIMEOUT 900 RESULT_VARIABLE locked)
    if(NOT locked EQUAL 0)
        return()
    endif()
    if(NOT EXISTS ${base}.pch AND NOT EXISTS ${base}.failed)
        file(WRITE ${base}.hpp "${includes}")
        execute_process(COMMAND ${CXX} ${pch_args} -x c++-header ${base}.hpp -o ${base}.pch.tmp
                        RESULT_VARIABLE pch_rc OUTPUT_VARIABLE pch_out ERROR_VARIABLE pch_out)
        if(pch_rc EQUAL 0)
            file(RENAME ${base}.pch.tmp ${base}.pch)
        else()
            file(WRITE ${base}.failed "${pch_out}")
        endif()
    endif()
    if(EXISTS ${base}.pch)
        set(${out} ${base}.pch PARENT_SCOPE)
    endif()
endfunction()

set(pch "")
if(PCH_DIR AND CXX MATCHES "clang")
    agentry_pch(pch)
endif()
if(pch)
    execute_process(COMMAND ${CXX} ${args} -include-pch ${pch} ${SOURCE}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 AND "${out}${err}" MATCHES "precompiled header|PCH file|AST file")
        set(pch "")  # not usable (a header changed since): compile without it
    endif()
endif()
if(NOT pch)
    execute_process(COMMAND ${CXX} ${args} ${SOURCE}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
message("${out}${err}")
if(MODE STREQUAL "fail")
    if(rc EQUAL 0)
        message("AGENTRY-COMPILED-BUT-SHOULD-NOT: ${SOURCE} compiled with -D${DEFINE}")
    endif()
    # Each error line of GCC and Clang has ": error: " (or ": fatal error: ") after its location.
    string(REGEX MATCHALL ": (fatal )?error: " errors "${out}${err}")
    list(LENGTH errors error_count)
    message("AGENTRY-ERROR-COUNT: ${error_count}")
    if(MAX_ERRORS AND error_count GREATER MAX_ERRORS)
        message("AGENTRY-TOO-MANY-ERRORS: ${error_count} errors, more than ${MAX_ERRORS}")
    endif()
    foreach(name IN LISTS NAMES)
        if(CXX MATCHES "clang")
            # Built character by character, not as a list: '[' and ']' would bind list items.
            string(LENGTH "${name}" length)
            set(shown "")
            math(EXPR last "${length} - 1")
            foreach(i RANGE ${last})
                string(SUBSTRING "${name}" ${i} 1 c)
                if(i GREATER 0)
                    string(APPEND shown ", ")
                endif()
                string(APPEND shown "'${c}'")
            endforeach()
        else()
            string(LENGTH "${name}" length)
            set(shown "fixed_string<${length}>{\"${name}\"}")
        endif()
        string(FIND "${out}${err}" "${shown}" at)
        if(at EQUAL -1)
            message("AGENTRY-NAME-NOT-SHOWN: ${shown}")
        endif()
    endforeach()
elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} did not compile")
endif()
