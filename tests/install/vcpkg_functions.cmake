# SPDX-License-Identifier: BSL-1.0
# Stand-ins for the vcpkg helper functions ports/agentry/portfile.cmake calls, so the portfile
# runs without vcpkg. Each does what vcpkg documents for a release-only port on Linux; vcpkg's
# toolchain, triplet flags, Ninja and binary cache are not reproduced. The test's compiler,
# generator and Boost stand in for the triplet's. Uses run() and configure_args (common.cmake).

function(vcpkg_cmake_configure)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "SOURCE_PATH" "OPTIONS;OPTIONS_RELEASE;OPTIONS_DEBUG")
    if(NOT VCPKG_BUILD_TYPE STREQUAL "release")
        message(FATAL_ERROR "vcpkg_cmake_configure stand-in: only release-only ports are run")
    endif()
    set(build ${CURRENT_BUILDTREES_DIR}/${TARGET_TRIPLET}-rel)
    # The variables vcpkg_cmake_configure sets for every port, then the port's own.
    execute_process(
        COMMAND ${CMAKE_COMMAND} -S ${arg_SOURCE_PATH} -B ${build} ${configure_args}
                -DCMAKE_BUILD_TYPE=Release
                -DCMAKE_INSTALL_PREFIX=${CURRENT_PACKAGES_DIR}
                -DBUILD_SHARED_LIBS=OFF
                -DCMAKE_INSTALL_LIBDIR:STRING=lib
                -DCMAKE_INSTALL_BINDIR:STRING=bin
                -DCMAKE_ERROR_ON_ABSOLUTE_INSTALL_DESTINATION=ON
                -DCMAKE_EXPORT_NO_PACKAGE_REGISTRY=ON
                -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
                -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON
                -DCMAKE_INSTALL_SYSTEM_RUNTIME_LIBS_SKIP=TRUE
                ${arg_OPTIONS} ${arg_OPTIONS_RELEASE}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "vcpkg_cmake_configure: configuring ${arg_SOURCE_PATH} failed")
    endif()
    # vcpkg warns about a port option the project never reads; here it fails the test.
    if(err MATCHES "not used by the project:\n\n((    [^\n]*\n)+)")
        set(unused "\n${CMAKE_MATCH_1}")
        foreach(option IN LISTS arg_OPTIONS arg_OPTIONS_RELEASE)
            if(option MATCHES "^-D([^:=]+)")
                set(name ${CMAKE_MATCH_1})
                if(unused MATCHES "\n    ${name}\n")
                    message(FATAL_ERROR "the portfile passes ${name}, which agentry's CMake does not read")
                endif()
            endif()
        endforeach()
    endif()
    set_property(GLOBAL PROPERTY vcpkg_build_dir ${build})
endfunction()

# -D<variable>=ON or OFF per feature of FEATURES (the features asked for, "core" always);
# inverted for INVERTED_FEATURES.
function(vcpkg_check_features)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUT_FEATURE_OPTIONS" "FEATURES;INVERTED_FEATURES")
    set(options "")
    foreach(kind IN ITEMS FEATURES INVERTED_FEATURES)
        set(pairs ${arg_${kind}})
        while(pairs)
            list(POP_FRONT pairs feature variable)
            list(FIND FEATURES ${feature} index)
            set(value OFF)
            if(index GREATER -1)
                set(value ON)
            endif()
            if(kind STREQUAL "INVERTED_FEATURES")
                if(value)
                    set(value OFF)
                else()
                    set(value ON)
                endif()
            endif()
            list(APPEND options -D${variable}=${value})
        endwhile()
    endforeach()
    set(${arg_OUT_FEATURE_OPTIONS} ${options} PARENT_SCOPE)
endfunction()

function(vcpkg_cmake_install)
    get_property(build GLOBAL PROPERTY vcpkg_build_dir)
    run(${CMAKE_COMMAND} --build ${build} --target install)
endfunction()

# Moves the CMake package files to share/<name> and corrects the relative prefix they compute.
function(vcpkg_cmake_config_fixup)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "PACKAGE_NAME;CONFIG_PATH" "")
    if(NOT arg_PACKAGE_NAME)
        set(arg_PACKAGE_NAME ${PORT})
    endif()
    if(NOT arg_CONFIG_PATH)
        set(arg_CONFIG_PATH share/${arg_PACKAGE_NAME})
    endif()
    set(from ${CURRENT_PACKAGES_DIR}/${arg_CONFIG_PATH})
    set(to ${CURRENT_PACKAGES_DIR}/share/${arg_PACKAGE_NAME})
    if(NOT IS_DIRECTORY ${from})
        message(FATAL_ERROR "vcpkg_cmake_config_fixup: '${from}' does not exist")
    endif()
    if(NOT from STREQUAL to)
        file(GLOB files ${from}/*)
        file(COPY ${files} DESTINATION ${to})
        file(REMOVE_RECURSE ${from})
        get_filename_component(parent ${from} DIRECTORY)
        get_filename_component(parent_name ${parent} NAME)
        if(parent_name STREQUAL "cmake")
            file(REMOVE_RECURSE ${parent})
        endif()
    endif()
    # share/<name> is two levels below the prefix.
    file(GLOB_RECURSE cmake_files ${to}/*.cmake)
    foreach(file IN LISTS cmake_files)
        file(READ ${file} text)
        string(REGEX REPLACE
            [[get_filename_component\(_IMPORT_PREFIX "\${CMAKE_CURRENT_LIST_FILE}" PATH\)(
get_filename_component\(_IMPORT_PREFIX "\${_IMPORT_PREFIX}" PATH\))*]]
            [[get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_FILE}" PATH)
get_filename_component(_IMPORT_PREFIX "${_IMPORT_PREFIX}" PATH)
get_filename_component(_IMPORT_PREFIX "${_IMPORT_PREFIX}" PATH)]]
            text "${text}")
        string(REGEX REPLACE
            [[get_filename_component\(PACKAGE_PREFIX_DIR "\${CMAKE_CURRENT_LIST_DIR}/\.\./(\.\./)*" ABSOLUTE\)]]
            [[get_filename_component(PACKAGE_PREFIX_DIR "${CMAKE_CURRENT_LIST_DIR}/../../" ABSOLUTE)]]
            text "${text}")
        string(REPLACE ${CURRENT_PACKAGES_DIR} [[${_IMPORT_PREFIX}]] text "${text}")
        file(WRITE ${file} "${text}")
    endforeach()
endfunction()

# Makes each .pc file's prefix relative to the file, then asks pkg-config about it.
function(vcpkg_fixup_pkgconfig)
    file(GLOB_RECURSE pc_files ${CURRENT_PACKAGES_DIR}/*.pc)
    foreach(file IN LISTS pc_files)
        file(RELATIVE_PATH relative ${CURRENT_PACKAGES_DIR} ${file})
        if(NOT relative MATCHES "^(lib|share)/pkgconfig/[^/]+\\.pc$")
            message(FATAL_ERROR "vcpkg_fixup_pkgconfig: ${relative} is not in lib/pkgconfig or share/pkgconfig")
        endif()
        get_filename_component(pc_dir ${file} DIRECTORY)
        file(RELATIVE_PATH up ${pc_dir} ${CURRENT_PACKAGES_DIR})
        file(READ ${file} text)
        string(REPLACE ${CURRENT_PACKAGES_DIR} [[${prefix}]] text "${text}")
        string(REGEX REPLACE "(^|\n)prefix=\\\${prefix}" "\\1prefix=\${pcfiledir}/${up}" text "${text}")
        file(WRITE ${file} "${text}")

        find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
        get_filename_component(name ${file} NAME_WE)
        set(ENV{PKG_CONFIG_PATH} ${pc_dir})
        run(${PKG_CONFIG} --print-errors --exists ${name})
        execute_process(COMMAND ${PKG_CONFIG} --static --libs ${name} OUTPUT_VARIABLE libs
                        OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(NOT libs MATCHES "^(-pthread)?$")
            message(FATAL_ERROR "vcpkg_fixup_pkgconfig stand-in: ${name}.pc links '${libs}'; only header-only packages are run")
        endif()
    endforeach()
endfunction()

# Concatenates the files into share/<port>/copyright. A missing file is recorded for the test
# to report (vcpkg stops there).
function(vcpkg_install_copyright)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "FILE_LIST")
    set(text "")
    foreach(file IN LISTS arg_FILE_LIST)
        if(EXISTS ${file})
            file(READ ${file} content)
            string(APPEND text "${content}")
        else()
            set_property(GLOBAL APPEND PROPERTY vcpkg_missing_copyright ${file})
        endif()
    endforeach()
    if(NOT text STREQUAL "")
        file(WRITE ${CURRENT_PACKAGES_DIR}/share/${PORT}/copyright "${text}")
    endif()
endfunction()
