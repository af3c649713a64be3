// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_DURABLE_PG_SERVER_HPP
#define AGENTRY_TESTS_DURABLE_PG_SERVER_HPP

// A PostgreSQL server of the test's own: initdb into a temporary folder, listening on
// 127.0.0.1 only on a free port (and a socket in that folder), stopped and removed when the
// object goes. initdb refuses to run as root: as root the server runs as the user "nobody"
// (through runuser). The binaries are looked for in AGENTRY_PG_BIN, /usr/lib/postgresql/*/bin
// (Debian) and /usr/bin. When initdb or pg_ctl cannot be found or the server cannot start,
// start() returns nothing and `why` says why.

#include <libpq-fe.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace durable_test {

class pg_server {
public:
    /// fast: fsync off (tests); otherwise the server's defaults (benchmarks).
    static std::unique_ptr<pg_server> start(std::string& why, bool fast = true) {
        const std::optional<std::filesystem::path> bin = find_bin();
        if (!bin) {
            why = "initdb and pg_ctl were not found (install the postgresql package, or set AGENTRY_PG_BIN)";
            return nullptr;
        }
        std::string as;  // the command prefix that runs as the server's user
        uid_t uid = ::getuid();
        gid_t gid = ::getgid();
        if (uid == 0) {
            const passwd* nobody = ::getpwnam("nobody");
            if (!nobody || std::system("command -v runuser >/dev/null 2>&1") != 0) {
                why = "running as root, and initdb refuses root: no user 'nobody' or no runuser to run it as another";
                return nullptr;
            }
            as = "runuser -u nobody -- ";
            uid = nobody->pw_uid;
            gid = nobody->pw_gid;
        }
        std::string dir_template = (std::filesystem::temp_directory_path() / "agentry-pg-XXXXXX").string();
        if (!::mkdtemp(dir_template.data())) {
            why = "cannot make a temporary folder";
            return nullptr;
        }
        std::unique_ptr<pg_server> s(new pg_server);
        s->dir_ = dir_template;
        s->as_ = as;
        s->bin_ = *bin;
        if (::chown(s->dir_.c_str(), uid, gid) != 0) {
            why = "cannot give the temporary folder to the server's user";
            return nullptr;
        }
        s->port_ = free_port();
        const std::string data = s->dir_ + "/data";
        if (!s->run(as + (*bin / "initdb").string() + " -D " + data +
                    " -U agentry --auth=trust -E UTF8 --no-sync >" + s->dir_ + "/initdb.log 2>&1")) {
            why = "initdb failed (see " + s->dir_ + "/initdb.log)";
            s->keep_ = true;
            return nullptr;
        }
        const std::string options = "-c listen_addresses=127.0.0.1 -p " + std::to_string(s->port_) + " -k " +
                                    s->dir_ + (fast ? " -c fsync=off -c synchronous_commit=off" : "") +
                                    " -c max_connections=50";
        if (!s->run(as + (*bin / "pg_ctl").string() + " -D " + data + " -l " + s->dir_ + "/server.log -w -t 60 -o '" +
                    options + "' start >/dev/null 2>&1")) {
            why = "the server did not start (see " + s->dir_ + "/server.log)";
            s->keep_ = true;
            return nullptr;
        }
        s->started_ = true;
        return s;
    }

    pg_server(const pg_server&) = delete;
    pg_server& operator=(const pg_server&) = delete;

    ~pg_server() {
        if (started_)
            run(as_ + (bin_ / "pg_ctl").string() + " -D " + dir_ + "/data -m immediate -w -t 60 stop >/dev/null 2>&1");
        if (!keep_ && !dir_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(dir_, ignored);
        }
    }

    std::string conninfo(const std::string& database) const {
        return "host=127.0.0.1 port=" + std::to_string(port_) + " user=agentry dbname=" + database;
    }

    /// A new empty database named `name`; false when it cannot be made.
    bool create_database(const std::string& name) const {
        PGconn* c = PQconnectdb(conninfo("postgres").c_str());
        bool ok = PQstatus(c) == CONNECTION_OK;
        if (ok) {
            PGresult* r = PQexec(c, ("CREATE DATABASE " + name).c_str());
            ok = PQresultStatus(r) == PGRES_COMMAND_OK;
            PQclear(r);
        }
        PQfinish(c);
        return ok;
    }

private:
    pg_server() = default;

    static std::optional<std::filesystem::path> find_bin() {
        if (const char* env = std::getenv("AGENTRY_PG_BIN"))
            if (std::filesystem::exists(std::filesystem::path(env) / "initdb")) return std::filesystem::path(env);
        std::error_code ec;
        std::optional<std::filesystem::path> best;
        for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
            const std::filesystem::path bin = entry.path() / "bin";
            if (std::filesystem::exists(bin / "initdb") && std::filesystem::exists(bin / "pg_ctl") &&
                (!best || bin > *best))
                best = bin;
        }
        if (best) return best;
        const std::filesystem::path usr_bin = "/usr/bin";  // other distributions
        if (std::filesystem::exists(usr_bin / "initdb") && std::filesystem::exists(usr_bin / "pg_ctl")) return usr_bin;
        return std::nullopt;
    }

    static int free_port() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        socklen_t n = sizeof a;
        int port = 0;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) == 0)
            port = ntohs(a.sin_port);
        ::close(fd);
        return port;
    }

    bool run(const std::string& command) const { return std::system(command.c_str()) == 0; }

    std::string dir_;
    std::string as_;
    std::filesystem::path bin_;
    int port_ = 0;
    bool started_ = false;
    bool keep_ = false;
};

} // namespace durable_test

#endif
