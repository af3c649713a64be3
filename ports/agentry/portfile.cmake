# SPDX-License-Identifier: BSL-1.0
# An overlay port that builds the agentry source tree holding it:
#   vcpkg install agentry --overlay-ports=<agentry>/ports
get_filename_component(SOURCE_PATH "${CURRENT_PORT_DIR}/../.." ABSOLUTE)

# Header-only: one configuration.
set(VCPKG_BUILD_TYPE release)

# Without a feature, CMake does not look for its library and its target is not made: curl
# (agentry::curl), tls (agentry::tls), sqlite (agentry::sqlite), postgres (agentry::postgres).
vcpkg_check_features(OUT_FEATURE_OPTIONS feature_options
    INVERTED_FEATURES
        curl CMAKE_DISABLE_FIND_PACKAGE_CURL
        tls CMAKE_DISABLE_FIND_PACKAGE_OpenSSL
        sqlite CMAKE_DISABLE_FIND_PACKAGE_SQLite3
        postgres CMAKE_DISABLE_FIND_PACKAGE_PostgreSQL
)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        ${feature_options}
        -DBUILD_TESTING=OFF
        # Installing needs nothing built, so the examples are not compiled.
        -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/agentry/cmake)
vcpkg_fixup_pkgconfig()

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
