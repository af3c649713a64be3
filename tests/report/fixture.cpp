// SPDX-License-Identifier: BSL-1.0
// What the report's end-to-end tests render (runs.hpp):
//   agentry_report_fixture html OUT.html   writes the report of the planned run to OUT.html
//   agentry_report_fixture store FILE      makes the SQLite store FILE with the durable run and
//                                          the planned run kept as checkpoints; prints
//                                          "durable <id>" and "planned <id>"
//   agentry_report_fixture postgres PROGRAM OUT.html
//                                          starts a PostgreSQL server of its own, makes the
//                                          durable run there, and runs agentry-report (PROGRAM)
//                                          --postgres on it to OUT.html; exits 77 (skipped) when
//                                          no server can be started
#include "runs.hpp"

#include <agentry/report/run_report.hpp>
#include <agentry/store/sqlite.hpp>
#if defined(AGENTRY_REPORT_TEST_POSTGRES)
#include "../durable/pg_server.hpp"

#include <agentry/store/postgres.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace {

int postgres(const std::string& program, const std::string& out) {
#if defined(AGENTRY_REPORT_TEST_POSTGRES)
    std::string why;
    const auto server = durable_test::pg_server::start(why);
    if (!server) {
        std::cout << "SKIP: no PostgreSQL server: " << why << "\n";
        return 77;
    }
    if (!server->create_database("runs")) {
        std::cerr << "cannot make the database\n";
        return 1;
    }
    std::string id;
    {
        agentry::postgres_store store{{.conninfo = server->conninfo("runs")}};
        id = report_test::durable_run(store);
    }
    const std::string command = "'" + program + "' --postgres '" + server->conninfo("runs") + "' " + id + " -o '" + out + "'";
    const int status = std::system(command.c_str());
    std::cout << "durable " << id << "\n";
    return status == 0 ? 0 : 1;
#else
    (void)program;
    (void)out;
    std::cout << "SKIP: built without libpq\n";
    return 77;
#endif
}

} // namespace

int main(int argc, char** argv) {
    const std::string_view mode = argc > 1 ? argv[1] : "";
    if (mode == "postgres" && argc == 4) {
        try {
            return postgres(argv[2], argv[3]);
        } catch (const std::exception& e) {
            std::cerr << e.what() << "\n";
            return 1;
        }
    }
    if (argc != 3 || (mode != "html" && mode != "store")) {
        std::cerr << "usage: agentry_report_fixture (html OUT.html | store FILE | postgres PROGRAM OUT.html)\n";
        return 2;
    }
    try {
        const agentry::run_result planned = report_test::planned_run();
        if (mode == "html") {
            std::ofstream out(argv[2], std::ios::binary);
            out << agentry::render_report(planned, {.title = "Planned run: a warm city break"});
            if (!out) {
                std::cerr << "cannot write " << argv[2] << "\n";
                return 1;
            }
            return 0;
        }
        std::remove(argv[2]);
        agentry::sqlite_store store{{.path = argv[2]}};
        std::cout << "durable " << report_test::durable_run(store) << "\n";
        std::cout << "planned " << report_test::stored_planned_run(store, planned) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}
