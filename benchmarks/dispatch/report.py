#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Markdown tables of a dispatch benchmark run (run.sh calls it).

When a run holds glaze rows (the binary built with AGENTRY_BENCH_GLAZE_DIR, or the -std=c++2b
binary), a side-by-side table of agentry, every glaze and nlohmann::json on the ticket and
flight_search fixtures follows, with the ratios and the targets (agentry at or below glaze,
at least 10x faster than nlohmann).

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


TARGET_VS_NLOHMANN_GLAZE_RUN = 10
SIDE_FIXTURES = [("ticket", "ticket (8 fields, 195 B)"), ("flight_search", "flight_search (9 fields, 208 B)")]
SIDE_STEPS = [("read", "read + validate"), ("call", "full dispatch")]


def side_by_side(w, label, r):
    """agentry against each glaze in the run and nlohmann::json; nothing when there is no glaze."""
    glazes = sorted({name.split("/")[0] for name in r if name.startswith("glaze-")})
    if not glazes:
        return
    w("#### %s: agentry, %s and nlohmann::json side by side" % (label, ", ".join(glazes)))
    w("")
    w("Median CPU time per call in ns (allocations per call). Ratios: other / agentry (above 1: "
      "agentry faster).")
    w("")
    header = "| fixture | step | agentry |"
    line = "| --- | --- | ---: |"
    for g in glazes:
        header += " %s | agentry vs %s |" % (g, g)
        line += " ---: | ---: |"
    header += " nlohmann | vs nlohmann |"
    line += " ---: | ---: |"
    w(header)
    w(line)
    for fixture, fixture_label in SIDE_FIXTURES:
        for step, step_label in SIDE_STEPS:
            a = r.get("agentry/%s/%s" % (step, fixture))
            at = a and a["ns"]
            row = "| %s | %s | %s (%s) |" % (fixture_label, step_label, fmt_ns(at), fmt_allocs(a))
            for g in glazes:
                e = r.get("%s/%s/%s" % (g, step, fixture))
                row += " %s (%s) | %s |" % (fmt_ns(e and e["ns"]), fmt_allocs(e), fmt_ratio(at, e and e["ns"]))
            n = r.get("nlohmann/%s/%s" % (step, fixture))
            row += " %s (%s) | %s |" % (fmt_ns(n and n["ns"]), fmt_allocs(n), fmt_ratio(at, n and n["ns"]))
            w(row)
    w("")
    w("| target | result |")
    w("| --- | --- |")
    for fixture, fixture_label in SIDE_FIXTURES:
        for step, step_label in SIDE_STEPS:
            a = r.get("agentry/%s/%s" % (step, fixture))
            for g in glazes:
                e = r.get("%s/%s/%s" % (g, step, fixture))
                if a and e:
                    w("| %s %s at or below %s | %s vs %s ns: %s |" % (
                        fixture, step_label, g, fmt_ns(a["ns"]), fmt_ns(e["ns"]), yes(a["ns"] <= e["ns"])))
            n = r.get("nlohmann/%s/%s" % (step, fixture))
            if a and n:
                w("| %s %s >= %dx faster than nlohmann | %s: %s |" % (
                    fixture, step_label, TARGET_VS_NLOHMANN_GLAZE_RUN, fmt_ratio(a["ns"], n["ns"]),
                    yes(n["ns"] / a["ns"] >= TARGET_VS_NLOHMANN_GLAZE_RUN)))
    for name, title in [("agentry/read/contact_views", "read<T> of two std::string_view members"),
                        ("agentry/call/contact_views", "dispatch of a tool reading only std::string_view members"),
                        ("agentry/read/fare_quote", "read<T> of fare_quote (no owning strings)"),
                        ("agentry/call/fare_quote", "dispatch of quote_fare (result: a struct of numbers)"),
                        ("agentry/call/ticket", "dispatch of open_ticket (result: a struct of numbers)"),
                        ("agentry/tool_result/construct", "an empty tool_result made and destroyed")]:
        e = r.get(name)
        if e:
            w("| %s | %s ns, %s allocations |" % (title, fmt_ns(e["ns"]), fmt_allocs(e)))
    w("")


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
        side_by_side(w, label, r)
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
