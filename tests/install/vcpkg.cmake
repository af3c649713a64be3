# SPDX-License-Identifier: BSL-1.0
# What `vcpkg install agentry --overlay-ports=ports` does, without vcpkg: runs
# ports/agentry/portfile.cmake with stand-ins for vcpkg's helper functions, applies vcpkg's
# post-build checks that concern a header-only port, copies the package into an installed tree
# and builds and runs test_package/ against it with plain CMake.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/vcpkg_functions.cmake)
fresh_dir(dir vcpkg)

set(PORT agentry)
set(TARGET_TRIPLET x64-linux)
set(CURRENT_PORT_DIR ${AGENTRY_SOURCE}/ports/agentry)
set(CURRENT_BUILDTREES_DIR ${dir}/buildtrees/${PORT})
set(CURRENT_PACKAGES_DIR ${dir}/packages/${PORT}_${TARGET_TRIPLET})
set(CURRENT_INSTALLED_DIR ${dir}/installed/${TARGET_TRIPLET})
set(FEATURES core)  # without the curl feature
include(${CURRENT_PORT_DIR}/portfile.cmake)
file(GLOB targets ${CURRENT_PACKAGES_DIR}/share/agentry/agentry-targets*.cmake)
file(READ ${CURRENT_PACKAGES_DIR}/share/agentry/agentry-targets.cmake exported)
if(exported MATCHES "agentry::curl")
    message(FATAL_ERROR "the port without its curl feature exported agentry::curl")
endif()

set(package ${CURRENT_PACKAGES_DIR})
foreach(file IN ITEMS include/agentry/agentry.hpp share/agentry/agentryConfig.cmake
                      share/agentry/agentryConfigVersion.cmake share/agentry/usage
                      share/pkgconfig/agentry.pc)
    if(NOT EXISTS ${package}/${file})
        message(FATAL_ERROR "the port did not install ${file}")
    endif()
endforeach()
foreach(unwanted IN ITEMS debug lib bin)
    if(EXISTS ${package}/${unwanted})
        message(FATAL_ERROR "the port installed ${unwanted}/, which a header-only port should not have")
    endif()
endforeach()
if(EXISTS ${package}/share/agentry/cmake)
    message(FATAL_ERROR "vcpkg_cmake_config_fixup left share/agentry/cmake/ behind")
endif()
set(build_paths_regex "")
foreach(path IN ITEMS ${dir} ${AGENTRY_SOURCE})
    string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" path "${path}")
    list(APPEND build_paths_regex "${path}")
endforeach()
list(JOIN build_paths_regex "|" build_paths_regex)
file(GLOB_RECURSE entries LIST_DIRECTORIES true ${package}/*)
foreach(entry IN LISTS entries)
    if(IS_DIRECTORY ${entry})
        file(GLOB inside ${entry}/*)
        if(NOT inside)
            message(FATAL_ERROR "the port left an empty directory: ${entry}")
        endif()
    else()
        file(STRINGS ${entry} build_paths REGEX "${build_paths_regex}")
        if(build_paths)
            message(FATAL_ERROR "${entry} holds an absolute build path: ${build_paths}")
        endif()
    endif()
endforeach()
get_property(build GLOBAL PROPERTY vcpkg_build_dir)
if(EXISTS ${build}/examples/quick_start)
    message(FATAL_ERROR "installing built the examples; the port asks for nothing to be built")
endif()

file(COPY ${package}/ DESTINATION ${CURRENT_INSTALLED_DIR})
build_and_run(${AGENTRY_SOURCE}/test_package ${dir}/test_package test_package
              -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${CURRENT_INSTALLED_DIR})

get_property(missing GLOBAL PROPERTY vcpkg_missing_copyright)
if(missing)
    message("install.vcpkg_port: skipped: everything above passed, but vcpkg would stop at "
            "vcpkg_install_copyright: ${missing} does not exist")
endif()
