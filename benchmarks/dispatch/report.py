#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Markdown tables of a dispatch benchmark run (run.sh calls it).

    report.py --bench LABEL=bench.json [--bench LABEL=bench.json ...] [--python python.json]
              [--compile LABEL=compile_times.txt ...]

bench.json: the --benchmark_out (JSON) of agentry_dispatch_bench run with
--benchmark_repetitions and --benchmark_report_aggregates_only=true; the median aggregates are
used, CPU time. python.json: the --json output of python_baseline.py. compile_times.txt: lines
"<seconds> s <KB> KB <command>" that /usr/bin/time appended for each compile.

Python 3 standard library only.
"""

import argparse
import json
import re
import sys

TARGET_READ_NS = 150
TARGET_CALL_NS = 300
TARGET_VS_NLOHMANN = 5
TARGET_VS_PYTHON = 200

FIXTURES = [("flight_search", "flight_search (9 fields, 208 B)"), ("fare_quote", "fare_quote (numbers only, 129 B)")]
STEPS = [("read", "parse + validate"), ("call", "full dispatch"), ("write", "write the result only")]
IMPLS = [("agentry", "agentry"), ("nlohmann", "nlohmann::json"), ("boost_json", "Boost.JSON")]


def load_bench(path):
    """name -> {"ns": median cpu ns, "allocs": ..., "bytes": ..., "cv": cpu coefficient of variation}."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        name = b["run_name"]
        entry = out.setdefault(name, {})
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        if b["aggregate_name"] == "median":
            entry["ns"] = b["cpu_time"] * scale
            entry["real_ns"] = b["real_time"] * scale
            entry["allocs"] = b.get("allocs", float("nan"))
            entry["bytes"] = b.get("alloc_bytes", float("nan"))
        elif b["aggregate_name"] == "cv":
            entry["cv"] = b["cpu_time"]
    return doc.get("context", {}), out


def fmt_ns(v):
    if v is None:
        return "n/a"
    if v >= 10000:
        return "{:,.0f}".format(v)
    if v >= 100:
        return "%.0f" % v
    return "%.1f" % v


def fmt_allocs(entry):
    if entry is None or "allocs" not in entry:
        return "n/a"
    a = entry["allocs"]
    return ("%.0f" % a) if abs(a - round(a)) < 0.01 else ("%.2f" % a)


def fmt_ratio(a, b):
    if a is None or b is None or a == 0:
        return "n/a"
    r = b / a
    return ("%.0fx" % r) if r >= 20 else ("%.1fx" % r)


def yes(ok):
    return "**met**" if ok else "**missed**"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", action="append", default=[], help="LABEL=bench.json")
    parser.add_argument("--python", help="python_baseline.py --json output")
    parser.add_argument("--compile", action="append", default=[], help="LABEL=compile_times.txt")
    args = parser.parse_args()

    runs = []
    for spec in args.bench:
        label, path = spec.split("=", 1)
        context, results = load_bench(path)
        runs.append((label, context, results))
    python = None
    if args.python:
        with open(args.python, encoding="utf-8") as f:
            python = json.load(f)

    w = print
    for label, context, r in runs:
        w("### %s" % label)
        w("")
        w("Median of the repetitions, CPU time per call in ns; allocs: operator new calls per call. "
          "Ratios: baseline time / agentry time.")
        w("")
        w("| fixture | step | agentry ns | allocs | nlohmann ns | allocs | Boost.JSON ns | allocs | vs nlohmann | vs Boost.JSON |")
        w("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for fixture, fixture_label in FIXTURES:
            for step, step_label in STEPS:
                cells = []
                times = {}
                for impl, _ in IMPLS:
                    e = r.get("%s/%s/%s" % (impl, step, fixture))
                    times[impl] = e["ns"] if e else None
                    cells += [fmt_ns(times[impl]), fmt_allocs(e)]
                w("| %s | %s | %s | %s | %s |" % (
                    fixture_label, step_label, " | ".join(cells),
                    fmt_ratio(times["agentry"], times["nlohmann"]), fmt_ratio(times["agentry"], times["boost_json"])))
        w("")
        sizes = sorted({int(m.group(1)) for name in r for m in [re.match(r"agentry/registry_(\d+)/", name)] if m})
        if sizes:
            w("Registries of N tools: N - 1 generated tools, then search_flights (registered last).")
            w("")
            w("| N tools | find(\"search_flights\") ns | call search_flights (last) ns | allocs | call a generated tool (middle) ns | allocs |")
            w("| ---: | ---: | ---: | ---: | ---: | ---: |")
            for n in sizes:
                find = r.get("agentry/registry_%d/find_last" % n)
                last = r.get("agentry/registry_%d/call_last" % n)
                middle = r.get("agentry/registry_%d/call_middle" % n)
                w("| %d | %s | %s | %s | %s | %s |" % (
                    n, fmt_ns(find and find["ns"]), fmt_ns(last and last["ns"]), fmt_allocs(last),
                    fmt_ns(middle and middle["ns"]), fmt_allocs(middle)))
            w("")
        noisy = sorted((e.get("cv", 0), name) for name, e in r.items() if e.get("cv", 0) > 0.05)
        if noisy:
            w("Coefficient of variation above 5%% over the repetitions: %s." % ", ".join(
                "%s %.0f%%" % (name, cv * 100) for cv, name in reversed(noisy)))
            w("")

    for spec in args.compile:
        label, path = spec.split("=", 1)
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except OSError:
            continue
        rows = []
        for line in lines:
            m = re.match(r"([\d.]+) s ([\d.]+) user (\d+) KB .*many_tools_(\d+)\.cpp", line)
            if m:
                rows.append((int(m.group(4)), float(m.group(1)), float(m.group(2)), int(m.group(3))))
        if rows:
            w("Compile of the registry translation units, %s (-O2; wall and user CPU seconds, peak RSS):" % label)
            w("")
            w("| N tools | wall s | CPU s | peak RSS MB |")
            w("| ---: | ---: | ---: | ---: |")
            for n, s, user, kb in sorted(rows):
                w("| %d | %.1f | %.1f | %.0f |" % (n, s, user, kb / 1024))
            w("")

    if python:
        res = python["results"]
        w("### Python baseline")
        w("")
        w("CPython %s, jsonschema %s (Draft202012Validator, the schema agentry generates): "
          "`json.loads` + validate + call + `json.dumps`, median of %d timeit runs, CPU time "
          "(`time.process_time`)." % (
              python["python"], python["jsonschema"], python["repeat"]))
        w("")
        header = "| fixture | Python, validator built once ns | Python, `jsonschema.validate` per call ns |"
        line = "| --- | ---: | ---: |"
        for label, _, _ in runs:
            header += " agentry full dispatch (%s) ns | ratio |" % label
            line += " ---: | ---: |"
        w(header)
        w(line)
        for fixture, fixture_label in FIXTURES:
            pre = res.get("prebuilt/%s" % (fixture if fixture != "flight_search" else "search_flights"))
            if fixture == "fare_quote":
                pre = res.get("prebuilt/quote_fare")
                per = res.get("per_call/quote_fare")
            else:
                per = res.get("per_call/search_flights")
            row = "| %s | %s | %s |" % (fixture_label, fmt_ns(pre and pre["ns_per_call"]),
                                        fmt_ns(per and per["ns_per_call"]))
            for label, _, r in runs:
                e = r.get("agentry/call/%s" % fixture)
                row += " %s | %s |" % (fmt_ns(e and e["ns"]), fmt_ratio(e and e["ns"], pre and pre["ns_per_call"]))
            w(row)
        w("")
        w("Ratio: Python with the validator built once / agentry.")
        w("")

    if runs:
        w("### Targets (flight_search fixture)")
        w("")
        w("| target | " + " | ".join(label for label, _, _ in runs) + " |")
        w("| --- | " + " | ".join("---" for _ in runs) + " |")

        def row(title, value):
            w("| %s | %s |" % (title, " | ".join(value(r) for _, _, r in runs)))

        def get(r, name):
            e = r.get(name)
            return e["ns"] if e else None

        def read_target(r):
            v = get(r, "agentry/read/flight_search")
            return "n/a" if v is None else "%s ns: %s" % (fmt_ns(v), yes(v <= TARGET_READ_NS))

        def call_target(r):
            v = get(r, "agentry/call/flight_search")
            return "n/a" if v is None else "%s ns: %s" % (fmt_ns(v), yes(v <= TARGET_CALL_NS))

        def nlohmann_target(r):
            a, b = get(r, "agentry/call/flight_search"), get(r, "nlohmann/call/flight_search")
            if a is None or b is None:
                return "n/a"
            return "%s: %s" % (fmt_ratio(a, b), yes(b / a >= TARGET_VS_NLOHMANN))

        def python_target(r):
            a = get(r, "agentry/call/flight_search")
            p = python and python["results"].get("prebuilt/search_flights")
            if a is None or not p:
                return "n/a"
            return "%s: %s" % (fmt_ratio(a, p["ns_per_call"]), yes(p["ns_per_call"] / a >= TARGET_VS_PYTHON))

        row("parse + validate <= %d ns" % TARGET_READ_NS, read_target)
        row("full dispatch <= %d ns" % TARGET_CALL_NS, call_target)
        row("full dispatch >= %dx faster than nlohmann" % TARGET_VS_NLOHMANN, nlohmann_target)
        row("full dispatch >= %dx faster than Python" % TARGET_VS_PYTHON, python_target)
        w("")
    return 0


if __name__ == "__main__":
    sys.exit(main())
