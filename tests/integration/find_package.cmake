# SPDX-License-Identifier: BSL-1.0
# Installs agentry into WORK/prefix, then builds and runs curl_consumer.cpp in a project that
# finds the installed package and links agentry::curl, which brings CURL::libcurl through
# agentryConfig.cmake. Inputs: those of ../install/common.cmake.
include(${AGENTRY_SOURCE}/tests/install/common.cmake)
fresh_dir(dir curl-find-package)
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${prefix})
run(${CMAKE_COMMAND} -S ${AGENTRY_SOURCE} -B ${dir}/agentry ${configure_args}
    -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install ${dir}/agentry)
build_and_run(${CMAKE_CURRENT_LIST_DIR}/find_package ${dir}/consumer curl_consumer -DCMAKE_PREFIX_PATH=${prefix})
