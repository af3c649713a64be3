# SPDX-License-Identifier: BSL-1.0
# Installs agentry into WORK/prefix, as `cmake --install` does for a user, and checks the layout.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
fresh_dir(dir prefix-build)
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${prefix})
run(${CMAKE_COMMAND} -S ${AGENTRY_SOURCE} -B ${dir} ${configure_args}
    -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install ${dir})

foreach(file IN ITEMS include/agentry/agentry.hpp
                      share/agentry/cmake/agentryConfig.cmake
                      share/agentry/cmake/agentryConfigVersion.cmake
                      share/agentry/cmake/agentry-targets.cmake
                      share/pkgconfig/agentry.pc)
    if(NOT EXISTS ${prefix}/${file})
        message(FATAL_ERROR "not installed: ${file}")
    endif()
endforeach()
# Header-only: nothing architecture-dependent.
foreach(dir IN ITEMS lib lib64 bin)
    if(EXISTS ${prefix}/${dir})
        message(FATAL_ERROR "installed ${dir}/, which a header-only package should not have")
    endif()
endforeach()
message("install.prefix: installed into ${prefix}")
