# SPDX-License-Identifier: BSL-1.0
# Builds and runs consumer.cpp with the compiler alone, taking the flags from
# `pkg-config --cflags agentry`, against a copy of the installed tree moved elsewhere.
# BOOST_FLAGS: how the compiler finds Boost when it is not on the default include path.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG)
    message("install.pkg_config: skipped: pkg-config is not installed (Debian package pkgconf)")
    return()
endif()
fresh_dir(dir pkg_config)

set(moved ${dir}/moved)
file(COPY ${WORK}/prefix/ DESTINATION ${moved})
set(ENV{PKG_CONFIG_PATH} ${moved}/share/pkgconfig)

function(pkg_config out)
    execute_process(COMMAND ${PKG_CONFIG} ${ARGN} agentry RESULT_VARIABLE rc
                    OUTPUT_VARIABLE text ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "pkg-config ${ARGN} agentry failed: ${err}")
    endif()
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

pkg_config(ignored --validate)
pkg_config(version --modversion)
if(NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config reports version '${version}', the project is ${VERSION}")
endif()
pkg_config(libs --libs)
if(NOT libs STREQUAL "")
    message(FATAL_ERROR "a header-only package links nothing, but --libs gives '${libs}'")
endif()
pkg_config(cflags --cflags)
message("pkg-config --cflags agentry: ${cflags}")
if(NOT cflags MATCHES "^-I([^ ]+)$")
    message(FATAL_ERROR "expected one -I flag")
endif()
file(REAL_PATH ${CMAKE_MATCH_1} include_dir)
file(REAL_PATH ${moved}/include expected)
if(NOT include_dir STREQUAL expected)
    message(FATAL_ERROR "-I names ${include_dir}, not the moved tree's include/")
endif()

separate_arguments(cflags UNIX_COMMAND "${cflags}")
run(${CXX} -std=c++20 ${cflags} ${BOOST_FLAGS} ${CMAKE_CURRENT_LIST_DIR}/consumer.cpp -o ${dir}/consumer)
run(${dir}/consumer)
