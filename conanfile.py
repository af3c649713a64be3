# SPDX-License-Identifier: BSL-1.0
import os

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, rmdir
from conan.tools.scm import Version

required_conan_version = ">=2.0"


class AgentryConan(ConanFile):
    name = "agentry"
    version = "0.1.0"
    license = "BSL-1.0"
    description = "Compile-time tool schemas and type-safe dispatch for LLM agents"
    topics = ("llm", "agents", "tool-calling", "json-schema", "reflection", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    # with_curl: the libcurl HTTP transport, CMake target agentry::curl; with_tls: https:// for
    # the MCP client, agentry::tls (OpenSSL); with_sqlite and with_postgres: the run stores of
    # durable runs, agentry::sqlite and agentry::postgres.
    options = {"with_curl": [True, False], "with_tls": [True, False], "with_sqlite": [True, False],
               "with_postgres": [True, False]}
    default_options = {"with_curl": False, "with_tls": False, "with_sqlite": False, "with_postgres": False}
    # examples/ is read because the top-level CMakeLists.txt adds it.
    exports_sources = ("CMakeLists.txt", "cmake/*", "include/*", "examples/*", "tools/*", "LICENSE")
    no_copy_source = True

    @property
    def _min_cppstd(self):
        return 20

    # The oldest compilers agentry is tested with.
    @property
    def _compilers_minimum_version(self):
        return {"gcc": "12", "clang": "14"}

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        # Only Boost's headers are used: -o "boost/*:header_only=True" skips building its libraries.
        self.requires("boost/1.86.0", transitive_headers=True)
        if self.options.with_curl:
            self.requires("libcurl/[>=7.78.0 <9]", transitive_headers=True)
        if self.options.with_tls:
            self.requires("openssl/[>=1.1.1 <4]", transitive_headers=True)
        if self.options.with_sqlite:
            self.requires("sqlite3/[>=3.35 <4]", transitive_headers=True)
        if self.options.with_postgres:
            self.requires("libpq/[>=13 <18]", transitive_headers=True)

    def package_id(self):
        # Headers only: no setting changes the package; the with_ options change what it requires.
        self.info.settings.clear()

    def validate(self):
        check_min_cppstd(self, self._min_cppstd)
        compiler = str(self.settings.compiler)
        minimum = self._compilers_minimum_version.get(compiler)
        if minimum and Version(self.settings.compiler.version) < minimum:
            raise ConanInvalidConfiguration(f"agentry: needs {compiler} {minimum} or newer")

    def generate(self):
        toolchain = CMakeToolchain(self)
        toolchain.cache_variables["BUILD_TESTING"] = "OFF"
        toolchain.cache_variables["CMAKE_DISABLE_FIND_PACKAGE_CURL"] = not self.options.with_curl
        toolchain.cache_variables["CMAKE_DISABLE_FIND_PACKAGE_OpenSSL"] = not self.options.with_tls
        toolchain.cache_variables["CMAKE_DISABLE_FIND_PACKAGE_SQLite3"] = not self.options.with_sqlite
        toolchain.cache_variables["CMAKE_DISABLE_FIND_PACKAGE_PostgreSQL"] = not self.options.with_postgres
        toolchain.generate()
        CMakeDeps(self).generate()

    def build(self):
        CMake(self).configure()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        CMake(self).install()
        # Consumers get the CMake and pkg-config files that Conan generates from package_info().
        rmdir(self, os.path.join(self.package_folder, "share"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "agentry")
        self.cpp_info.set_property("pkg_config_name", "agentry")
        def component(name, target, pkg_config, requires):
            # Header-only, like the package: no bin/ or lib/ of its own.
            c = self.cpp_info.components[name]
            c.set_property("cmake_target_name", target)
            c.set_property("pkg_config_name", pkg_config)
            c.bindirs = []
            c.libdirs = []
            c.requires = requires
            return c

        threads = ["pthread"] if self.settings.os in ("Linux", "FreeBSD") else []
        component("core", "agentry::agentry", "agentry", ["boost::headers"])
        separate = component("separate_compilation", "agentry::separate_compilation",
                             "agentry-separate-compilation", ["core"])
        separate.defines = ["AGENTRY_SEPARATE_COMPILATION"]
        component("mcp", "agentry::mcp", "agentry-mcp", ["core"]).system_libs = threads
        if self.options.with_curl:
            curl = component("curl", "agentry::curl", "agentry-curl", ["core", "libcurl::libcurl"])
            curl.defines = ["AGENTRY_WITH_CURL"]
        if self.options.with_tls:
            tls = component("tls", "agentry::tls", "agentry-tls", ["core", "openssl::ssl", "openssl::crypto"])
            tls.defines = ["AGENTRY_WITH_TLS"]
        for name, option, dependency in (("sqlite", self.options.with_sqlite, "sqlite3::sqlite3"),
                                         ("postgres", self.options.with_postgres, "libpq::libpq")):
            if option:
                store = component(name, f"agentry::{name}", f"agentry-{name}", ["core", dependency])
                store.system_libs = threads
