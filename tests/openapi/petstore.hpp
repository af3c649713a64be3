// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_OPENAPI_PETSTORE_HPP
#define AGENTRY_TESTS_OPENAPI_PETSTORE_HPP

// The small OpenAPI 3.1 document the unit tests read, and a transport that records each
// request and answers with a reply given beforehand.

#include <agentry/openapi/toolset.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace agentry_test {

inline constexpr std::string_view petstore = R"x({
 "openapi": "3.1.0",
 "info": {"title": "Pet Store", "version": "1"},
 "servers": [{"url": "{scheme}://127.0.0.1:{port}/v1/",
              "variables": {"scheme": {"default": "http"}, "port": {"default": "8080"}}}],
 "security": [{"key": []}],
 "components": {
  "securitySchemes": {
   "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
   "token": {"type": "http", "scheme": "bearer"},
   "qkey": {"type": "apiKey", "in": "query", "name": "api_key"},
   "ckey": {"type": "apiKey", "in": "cookie", "name": "session"},
   "basic": {"type": "http", "scheme": "basic"}},
  "parameters": {
   "limit": {"name": "limit", "in": "query", "description": "How many at most", "schema": {"type": "integer", "maximum": 100}}},
  "schemas": {
   "Pet": {"type": "object", "properties": {"name": {"type": "string"}, "tag": {"$ref": "#/components/schemas/Tag", "description": "The pet's tag"}},
           "required": ["name"]},
   "Tag": {"type": "string", "description": "A tag"},
   "Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}},
   "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
   "B": {"type": "array", "items": {"$ref": "#/components/schemas/A"}},
   "a~b/c": {"type": "integer", "minimum": 1}}},
 "paths": {
  "/pets": {
   "parameters": [{"name": "limit", "in": "query", "schema": {"type": "string"}},
                  {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
   "get": {"operationId": "listPets", "summary": "List pets", "description": "Lists the pets in the store.", "tags": ["pets"],
           "parameters": [{"$ref": "#/components/parameters/limit"},
                          {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}]},
   "post": {"operationId": "createPet", "summary": "Create a pet", "tags": ["pets", "write"], "security": [{"token": []}],
            "requestBody": {"required": true, "description": "The new pet",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}},
  "/pets/{petId}": {
   "get": {"summary": "Show a pet", "security": [],
           "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}]},
   "delete": {"operationId": "listPets", "security": [{"qkey": [], "ckey": []}],
              "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}]}},
  "/nodes": {"post": {"operationId": "add node", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}},
  "/graph": {"put": {"operationId": "graph", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}},
  "/ext": {"get": {"operationId": "ext", "parameters": [{"$ref": "other.json#/components/parameters/x"}]}},
  "/dangling": {"get": {"operationId": "dangling", "parameters": [{"$ref": "#/components/parameters/nothing"}]}},
  "/escaped": {"get": {"operationId": "escaped", "security": [{"basic": []}],
                       "parameters": [{"name": "n", "in": "query", "schema": {"$ref": "#/components/schemas/a~0b~1c"}}]}},
  "/upload": {"post": {"operationId": "upload", "requestBody": {"required": true, "content": {"image/png": {}}}}}
 }
})x";

/// Records each request; answers with `reply`.
struct recording_transport {
    std::vector<agentry::http_request>* sent;
    agentry::transport_result reply;

    agentry::transport_result send(const agentry::http_request& r) {
        sent->push_back(r);
        return reply;
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers&) { return send(r); }
};

} // namespace agentry_test

#endif
