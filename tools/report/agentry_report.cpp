// SPDX-License-Identifier: BSL-1.0
// agentry-report: the run report (agentry/report/stored_report.hpp) of a run kept in a run
// store, as one HTML page.
//
//   agentry-report (--sqlite FILE | --postgres CONNINFO) RUN_ID [-o OUT.html] [--title TEXT]
//
// The page goes to OUT.html, or to the standard output. Exit status: 0 written; 1 the store
// could not be read, has no such run, or the page could not be written; 2 a usage error.
#include <agentry/report/stored_report.hpp>
#include <agentry/store/sqlite.hpp>
#if defined(AGENTRY_REPORT_POSTGRES)
#include <agentry/store/postgres.hpp>
#endif

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view usage =
    "usage: agentry-report (--sqlite FILE | --postgres CONNINFO) RUN_ID [-o OUT.html] [--title TEXT]";

struct arguments {
    std::string sqlite, postgres, run, out;
    agentry::report_options options;
};

// The arguments, or an error message (empty for --help).
std::optional<arguments> parse(int argc, char** argv, std::string& error) {
    arguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const auto value = [&](std::string& to) {
            if (i + 1 == argc) {
                error = "agentry-report: " + std::string(arg) + " needs a value; " + std::string(usage);
                return false;
            }
            to = argv[++i];
            return true;
        };
        if (arg == "--help" || arg == "-h") return std::nullopt;
        if (arg == "--sqlite" || arg == "--postgres" || arg == "-o" || arg == "--title") {
            std::string& to = arg == "--sqlite"     ? a.sqlite
                              : arg == "--postgres" ? a.postgres
                              : arg == "-o"         ? a.out
                                                    : a.options.title;
            if (!value(to)) return std::nullopt;
        } else if (arg.starts_with("-") && arg.size() > 1) {
            error = "agentry-report: unknown option " + std::string(arg) + "; " + std::string(usage);
            return std::nullopt;
        } else if (a.run.empty()) {
            a.run = arg;
        } else {
            error = "agentry-report: one run id only (got " + a.run + " and " + std::string(arg) + "); " +
                    std::string(usage);
            return std::nullopt;
        }
    }
    if (a.sqlite.empty() == a.postgres.empty())
        error = "agentry-report: give the store: one of --sqlite FILE or --postgres CONNINFO; " + std::string(usage);
    else if (a.run.empty())
        error = "agentry-report: give the run id (as start_run returned it); " + std::string(usage);
    if (!error.empty()) return std::nullopt;
    return a;
}

std::string page_of(const arguments& a) {
    if (!a.sqlite.empty()) {
        // sqlite_store makes a missing file: refuse it first, since it cannot hold the run.
        struct stat st {};
        if (::stat(a.sqlite.c_str(), &st) != 0)
            throw agentry::store_error("agentry-report: cannot open " + a.sqlite + ": " + std::strerror(errno) +
                                       "; give the SQLite file the runs are stored in");
        agentry::sqlite_store store{{.path = a.sqlite}};
        return agentry::render_report(store, a.run, a.options);
    }
#if defined(AGENTRY_REPORT_POSTGRES)
    agentry::postgres_store store{{.conninfo = a.postgres}};
    return agentry::render_report(store, a.run, a.options);
#else
    throw agentry::store_error("agentry-report: this build has no PostgreSQL store (libpq was not found when it was "
                               "built); use --sqlite, or build it where libpq is installed");
#endif
}

} // namespace

int main(int argc, char** argv) {
    std::string error;
    const std::optional<arguments> a = parse(argc, argv, error);
    if (!a) {
        if (!error.empty()) {
            std::cerr << error << "\n";
            return 2;
        }
        std::cout << usage << "\n";
        return 0;
    }
    std::string page;
    try {
        page = page_of(*a);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    if (a->out.empty()) {
        std::cout << page;
        std::cout.flush();
        return std::cout ? 0 : 1;
    }
    std::ofstream file(a->out, std::ios::binary);
    if (file) file << page;
    file.close();
    if (!file) {
        std::cerr << "agentry-report: cannot write " << a->out << ": " << std::strerror(errno)
                  << "; give -o a path in a writable directory\n";
        return 1;
    }
    return 0;
}
