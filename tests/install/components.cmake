# SPDX-License-Identifier: BSL-1.0
# The CMake package's components against the tree install.prefix installed: which targets each
# find_package() call gives, that a consumer configured with -DCMAKE_DISABLE_FIND_PACKAGE_CURL=ON
# gets everything but agentry::curl, and the messages when a component cannot be had.
# Input: HAVE_CURL, HAVE_TLS, HAVE_STORES (whether the installed tree has the curl component,
# the tls component, the run stores).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
fresh_dir(dir components)
set(no_curl -DCMAKE_DISABLE_FIND_PACKAGE_CURL=ON)
set(prefix ${WORK}/prefix)

# consumer(<name> <expect: ok|fail> <find_package args> [<configure args>...]): configures the
# consumer project against the installed tree at ${prefix}; returns its output in <name>_out.
function(consumer name expect find_args)
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/components -B ${dir}/${name}
                            ${configure_args} -DCMAKE_PREFIX_PATH=${prefix} "-DFIND_ARGS=${find_args}" ${ARGN}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(out "${out}${err}")
    if(expect STREQUAL "ok" AND NOT rc EQUAL 0)
        message(FATAL_ERROR "${name}: find_package(agentry ${find_args}) failed:\n${out}")
    elseif(expect STREQUAL "fail" AND rc EQUAL 0)
        message(FATAL_ERROR "${name}: find_package(agentry ${find_args}) should have failed:\n${out}")
    endif()
    message("${name}: find_package(agentry ${find_args}) ${ARGN}: configure ${expect}")
    set(${name}_out "${out}" PARENT_SCOPE)
endfunction()

# expect_targets(<name> <agentry::mcp: present|absent> <agentry::curl: present|absent>)
function(expect_targets name want_mcp want_curl)
    set(want_agentry present)
    foreach(target IN ITEMS agentry mcp curl)
        set(want "BSL-1.0")
        if(want_${target} STREQUAL "absent")
            set(want "absent")
        endif()
        if(NOT ${name}_out MATCHES "target agentry::${target}: ${want}\n")
            message(FATAL_ERROR "${name}: expected agentry::${target}: ${want}, got:\n${${name}_out}")
        endif()
    endforeach()
endfunction()

# expect_message(<name> <text>): the failed configure said <text> (CMake wraps messages: runs
# of white space compare equal).
function(expect_message name text)
    string(REGEX REPLACE "[ \n]+" " " said "${${name}_out}")
    string(FIND "${said}" "${text}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${name}: expected the message '${text}', got:\n${${name}_out}")
    endif()
endfunction()

# Without libcurl in the consumer: no component asked for gives the core and mcp; the consumer
# builds and runs.
consumer(without_curl ok "REQUIRED" ${no_curl} -DBUILD=ON)
expect_targets(without_curl present absent)
run(${CMAKE_COMMAND} --build ${dir}/without_curl)
run(${dir}/without_curl/consumer)
run(${dir}/without_curl/mcp_consumer)

consumer(mcp_without_curl ok "REQUIRED;COMPONENTS;mcp" ${no_curl})
expect_targets(mcp_without_curl present absent)
consumer(optional_curl ok "REQUIRED;COMPONENTS;mcp;OPTIONAL_COMPONENTS;curl" ${no_curl})
expect_targets(optional_curl present absent)
consumer(required_curl fail "REQUIRED;COMPONENTS;curl" ${no_curl})
expect_message(required_curl "CURL")
consumer(unknown fail "REQUIRED;COMPONENTS;redis")
expect_message(unknown "agentry: no component 'redis'; the components are mcp, curl, tls, sqlite and postgres")
# https:// for the MCP client, when this build has it.
if(HAVE_TLS)
    consumer(tls ok "REQUIRED;COMPONENTS;mcp;tls")
    if(NOT tls_out MATCHES "target agentry::tls: BSL-1.0\n")
        message(FATAL_ERROR "tls: expected agentry::tls, got:\n${tls_out}")
    endif()
endif()
# The run stores, when this build has them.
if(HAVE_STORES)
    consumer(stores ok "REQUIRED;COMPONENTS;sqlite;postgres")
    foreach(target IN ITEMS sqlite postgres)
        if(NOT stores_out MATCHES "target agentry::${target}: BSL-1.0\n")
            message(FATAL_ERROR "stores: expected agentry::${target}, got:\n${stores_out}")
        endif()
    endforeach()
endif()

# Neither Threads nor CURL: the core alone.
consumer(neither ok "REQUIRED" ${no_curl} -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON)
expect_targets(neither absent absent)
if(HAVE_CURL)
    consumer(both ok "REQUIRED;COMPONENTS;curl;mcp")
    expect_targets(both present present)
endif()

# agentry itself configured without libcurl: the package has no curl component to give.
set(prefix ${dir}/prefix-without-curl)
run(${CMAKE_COMMAND} -S ${AGENTRY_SOURCE} -B ${dir}/agentry-without-curl ${configure_args} ${no_curl}
    -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install ${dir}/agentry-without-curl)
if(EXISTS ${prefix}/share/agentry/cmake/agentry-curl-targets.cmake OR EXISTS ${prefix}/share/pkgconfig/agentry-curl.pc)
    message(FATAL_ERROR "agentry configured without libcurl installed the curl component")
endif()
consumer(not_installed fail "REQUIRED;COMPONENTS;mcp;curl")
expect_message(not_installed "agentry: the component 'curl' is not installed: agentry was configured without CURL")
consumer(not_installed_optional ok "REQUIRED;OPTIONAL_COMPONENTS;curl")
expect_targets(not_installed_optional absent absent)
message("install.components: all passed")
