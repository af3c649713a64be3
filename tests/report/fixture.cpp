// SPDX-License-Identifier: BSL-1.0
// What the report's end-to-end tests render (runs.hpp):
//   agentry_report_fixture html OUT.html   writes the report of the planned run to OUT.html
//   agentry_report_fixture store FILE      makes the SQLite store FILE with the durable run and
//                                          the planned run kept as checkpoints; prints
//                                          "durable <id>" and "planned <id>"
#include "runs.hpp"

#include <agentry/report/run_report.hpp>
#include <agentry/store/sqlite.hpp>

#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
    if (argc != 3 || (std::string_view(argv[1]) != "html" && std::string_view(argv[1]) != "store")) {
        std::cerr << "usage: agentry_report_fixture (html OUT.html | store FILE)\n";
        return 2;
    }
    try {
        const agentry::run_result planned = report_test::planned_run();
        if (std::string_view(argv[1]) == "html") {
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
