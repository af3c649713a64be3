# SPDX-License-Identifier: BSL-1.0
# Compiles one translation unit for a ctest test (see agentry_compile_test).
# -DCXX= compiler, -DSOURCE= file, -DMODE=pass|fail, -DINCLUDES= list (the project's own
# include directory first), -DDEFINE= optional macro, -DFLAGS= optional list of further flags,
# -DMAX_ERRORS= optional limit on the number of errors a failing compile reports (the
# diagnostic and its follow-on errors), -DNAMES= optional list of names (a tool's, a field
# path) the failing compile must show as text: GCC prints a name as fixed_string<N>{"name"},
# Clang 14 as the characters 'n', 'a', 'm', 'e'.
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
execute_process(COMMAND ${CXX} ${args} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
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
