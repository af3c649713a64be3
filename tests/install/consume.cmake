# SPDX-License-Identifier: BSL-1.0
# Builds and runs consumer.cpp in a CMake project that gets agentry one way (MODE):
#   find_package      the tree install.prefix installed
#   add_subdirectory  the source tree (installing the parent installs agentry only with AGENTRY_INSTALL=ON)
#   fetch_content     FetchContent, from a local release-style archive of the source tree
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
fresh_dir(dir ${MODE})

if(MODE STREQUAL "find_package")
    set(args -DCMAKE_PREFIX_PATH=${WORK}/prefix)
elseif(MODE STREQUAL "add_subdirectory")
    set(args -DAGENTRY_SOURCE=${AGENTRY_SOURCE})
elseif(MODE STREQUAL "fetch_content")
    # The archive holds what a subproject build reads, under one top folder as in a release.
    set(top agentry-${VERSION})
    file(MAKE_DIRECTORY ${dir}/stage/${top})
    file(COPY ${AGENTRY_SOURCE}/CMakeLists.txt ${AGENTRY_SOURCE}/cmake ${AGENTRY_SOURCE}/include
         DESTINATION ${dir}/stage/${top})
    set(archive ${dir}/${top}.tar.gz)
    run(${CMAKE_COMMAND} -E chdir ${dir}/stage ${CMAKE_COMMAND} -E tar czf ${archive} ${top})
    file(SHA256 ${archive} sha256)
    set(args -DAGENTRY_ARCHIVE=${archive} -DAGENTRY_ARCHIVE_SHA256=${sha256})
else()
    message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
build_and_run(${CMAKE_CURRENT_LIST_DIR}/${MODE} ${dir}/consumer consumer ${args})
if(MODE STREQUAL "find_package")
    run(${dir}/consumer/mcp_consumer)
elseif(MODE STREQUAL "add_subdirectory")
    # As a subproject, agentry installs nothing (AGENTRY_INSTALL is off) unless asked.
    run(${CMAKE_COMMAND} --install ${dir}/consumer --prefix ${dir}/installed)
    if(EXISTS ${dir}/installed)
        message(FATAL_ERROR "installing the parent project installed agentry's files")
    endif()
    run(${CMAKE_COMMAND} ${dir}/consumer -DAGENTRY_INSTALL=ON)
    run(${CMAKE_COMMAND} --install ${dir}/consumer --prefix ${dir}/installed)
    if(NOT EXISTS ${dir}/installed/include/agentry/agentry.hpp)
        message(FATAL_ERROR "AGENTRY_INSTALL=ON in the parent project did not install agentry")
    endif()
endif()
