// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/message.hpp>

#include <doctest/doctest.h>

#include <string>

namespace mcp = agentry::mcp;

TEST_CASE("read_message: kinds") {
    mcp::received r = mcp::read_message(R"( {"method":"tools/call","params":{"name":"a"},"id":"x\"y","jsonrpc":"2.0"} )");
    CHECK(r.kind == mcp::message_kind::request);
    CHECK(r.id == R"("x\"y")");
    CHECK(r.method == "tools/call");
    CHECK(r.params == R"({"name":"a"})");

    r = mcp::read_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(r.kind == mcp::message_kind::notification);
    CHECK(r.id.empty());
    CHECK(r.params.empty());

    CHECK(mcp::read_message(R"({"jsonrpc":"2.0","id":-12,"result":{}})").kind == mcp::message_kind::response);
    CHECK(mcp::read_message(R"({"jsonrpc":"2.0","id":1,"error":{"code":1,"message":""}})").kind ==
          mcp::message_kind::response);
}

TEST_CASE("read_message: invalid messages keep the id when it was read") {
    mcp::received r = mcp::read_message(R"({"jsonrpc":"2.0","id":7,"method":3})");
    CHECK(r.kind == mcp::message_kind::invalid);
    CHECK(r.code == mcp::error_code::invalid_request);
    CHECK(r.id == "7");
    CHECK(r.error == "Invalid Request: /method: expected a string, got a number 3");

    r = mcp::read_message(R"({"jsonrpc":"2.0","method":"x","id":true})");
    CHECK(r.id.empty());
    CHECK(mcp::error_response(r) ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or an integer"}})");

    r = mcp::read_message("{\"id\":1,");
    CHECK(r.code == mcp::error_code::parse_error);
    CHECK(r.id == "1");

    r = mcp::read_message("", 10);
    CHECK(r.code == mcp::error_code::parse_error);
    CHECK(r.error == "Parse error: invalid JSON at byte 0: unexpected end of input");

    r = mcp::read_message(std::string(11, ' '), 10);
    CHECK(r.code == mcp::error_code::invalid_request);
    CHECK(r.error == "Invalid Request: the message is 11 bytes long, more than the limit of 10");
}

TEST_CASE("responses are escaped") {
    std::string out;
    mcp::write_error(out, "1", mcp::error_code::method_not_found, "a \"b\"\n\x01");
    CHECK(out == R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"a \"b\"\n\u0001"}})");
    out.clear();
    mcp::write_result(out, R"("i")", "{}");
    CHECK(out == R"({"jsonrpc":"2.0","id":"i","result":{}})");
}
