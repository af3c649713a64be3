-- SPDX-License-Identifier: BSL-1.0
-- wrk: POSTs one request again and again. BENCH_BODY is the file holding the body;
-- BENCH_HEADERS holds the header fields, one "Name: value" a line.
local function read(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("*a")
    f:close()
    return text
end

wrk.method = "POST"
wrk.body = read(os.getenv("BENCH_BODY"))
for line in read(os.getenv("BENCH_HEADERS")):gmatch("[^\r\n]+") do
    local name, value = line:match("^([^:]+):%s*(.*)$")
    wrk.headers[name] = value
end
