# SPDX-License-Identifier: BSL-1.0
# Builds and runs consumer.cpp in a CMake project that gets agentry one way (MODE):
#   find_package      the tree install.prefix installed
#   add_subdirectory  the source tree
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
endif()
