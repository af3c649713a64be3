# SPDX-License-Identifier: BSL-1.0
# The README's first C++ block must be examples/quick_start.cpp, byte for byte, after the
# example's licence line.
file(READ ${README} readme)
file(READ ${EXAMPLE} example)
string(REGEX REPLACE "^// SPDX-License-Identifier: [^\n]*\n" "" example "${example}")
string(FIND "${readme}" "```cpp\n" start)
if(start EQUAL -1)
    message(FATAL_ERROR "README.md has no ```cpp block")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "```" end)
string(SUBSTRING "${rest}" 0 ${end} block)
if(NOT block STREQUAL example)
    message(FATAL_ERROR "README.md quick start differs from examples/quick_start.cpp")
endif()
message("README quick start matches examples/quick_start.cpp")
