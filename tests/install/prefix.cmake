# SPDX-License-Identifier: BSL-1.0
# Installs agentry into WORK/prefix, as `cmake --install` does for a user, and checks the layout.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
fresh_dir(dir prefix-build)
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${prefix})
run(${CMAKE_COMMAND} -S ${AGENTRY_SOURCE} -B ${dir} ${configure_args}
    -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install ${dir})

set(files include/agentry/agentry.hpp
          share/doc/agentry/LICENSE
          share/agentry/cmake/agentryConfig.cmake
          share/agentry/cmake/agentryConfigVersion.cmake
          share/agentry/cmake/agentry-targets.cmake
          share/agentry/cmake/agentry-mcp-targets.cmake
          share/pkgconfig/agentry.pc
          share/pkgconfig/agentry-mcp.pc)
# The curl component is installed when libcurl was found, as in this build.
if(HAVE_CURL)
    list(APPEND files share/agentry/cmake/agentry-curl-targets.cmake share/pkgconfig/agentry-curl.pc)
endif()
# The tls component, when OpenSSL was found.
if(HAVE_TLS)
    list(APPEND files share/agentry/cmake/agentry-tls-targets.cmake share/pkgconfig/agentry-tls.pc)
endif()
# The run stores, when SQLite3 and libpq were found.
if(HAVE_STORES)
    list(APPEND files share/agentry/cmake/agentry-sqlite-targets.cmake share/pkgconfig/agentry-sqlite.pc
                      share/agentry/cmake/agentry-postgres-targets.cmake share/pkgconfig/agentry-postgres.pc)
endif()
foreach(file IN LISTS files)
    if(NOT EXISTS ${prefix}/${file})
        message(FATAL_ERROR "not installed: ${file}")
    endif()
endforeach()
file(READ ${AGENTRY_SOURCE}/LICENSE licence)
file(READ ${prefix}/share/doc/agentry/LICENSE installed_licence)
if(NOT installed_licence STREQUAL licence)
    message(FATAL_ERROR "share/doc/agentry/LICENSE differs from LICENSE")
endif()
# Header-only: nothing architecture-dependent.
foreach(dir IN ITEMS lib lib64 bin)
    if(EXISTS ${prefix}/${dir})
        message(FATAL_ERROR "installed ${dir}/, which a header-only package should not have")
    endif()
endforeach()
message("install.prefix: installed into ${prefix}")
