# SPDX-License-Identifier: BSL-1.0
# What `conan create` does with conanfile.py and test_package/, without Conan: exports the
# recipe's exports_sources, configures them as build() does, installs as package() does, then
# builds and runs test_package/ against that install with plain CMake. Conan's own steps
# (CMakeDeps, CMakeToolchain, the package_info() targets) are not exercised.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
fresh_dir(dir conan)

file(READ ${AGENTRY_SOURCE}/conanfile.py recipe)
if(NOT recipe MATCHES "exports_sources = \\(([^)]*)\\)")
    message(FATAL_ERROR "conanfile.py: no 'exports_sources = (...)' found")
endif()
string(REGEX MATCHALL "\"[^\"]+\"" patterns "${CMAKE_MATCH_1}")
foreach(quoted IN LISTS patterns)
    string(REPLACE "\"" "" pattern ${quoted})
    if(pattern MATCHES "^([^*?]+)/\\*$")
        set(path ${CMAKE_MATCH_1})
    elseif(pattern MATCHES "[*?[]")
        message(FATAL_ERROR "exports_sources pattern '${pattern}': this test reads 'path' and 'dir/*' only")
    else()
        set(path ${pattern})
    endif()
    get_filename_component(parent ${path} DIRECTORY)
    if(EXISTS ${AGENTRY_SOURCE}/${path})
        file(COPY ${AGENTRY_SOURCE}/${path} DESTINATION ${dir}/source/${parent})
    endif()
endforeach()
string(REPLACE "\"" "" patterns "${patterns}")
list(JOIN patterns ", " patterns)
message("exported: ${patterns}")

run(${CMAKE_COMMAND} -S ${dir}/source -B ${dir}/build ${configure_args}
    -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF)
run(${CMAKE_COMMAND} --install ${dir}/build --prefix ${dir}/package)
foreach(unused IN ITEMS lib bin)
    if(EXISTS ${dir}/package/${unused})
        message(FATAL_ERROR "the package has ${unused}/, but package_info() declares none")
    endif()
endforeach()

build_and_run(${AGENTRY_SOURCE}/test_package ${dir}/test_package test_package
              -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${dir}/package)
