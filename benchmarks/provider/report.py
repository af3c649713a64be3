#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Markdown tables of a provider-turn and loop-overhead run (run.sh calls it): the Chat
Completions turn, the Responses and Anthropic-with-thinking turns, the loop.

    report.py [--provider LABEL=provider.json ...] [--loop LABEL=loop.json ...]

Each JSON file is the --benchmark_out of agentry_provider_bench or agentry_loop_bench run with
--benchmark_repetitions and --benchmark_report_aggregates_only=true. Times are the medians of
the repetitions, CPU time; allocs are operator new calls per iteration (median run).

Python 3 standard library only.
"""

import argparse
import json
import sys

TARGET_TURN_US = 20.0
TARGET_VS_NLOHMANN = 3.0
TARGET_LOOP_TURN_US = 30.0


def load(path):
    """(context, {run_name: {"us", "allocs", "bytes", "cv"}}) of one benchmark output."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        e = out.setdefault(b["run_name"], {})
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
        if b["aggregate_name"] == "median":
            e["us"] = b["cpu_time"] * scale
            e["real_us"] = b["real_time"] * scale
            e["allocs"] = b.get("allocs")
            e["bytes"] = b.get("alloc_bytes")
        elif b["aggregate_name"] == "cv":
            e["cv"] = b["cpu_time"]
    return doc.get("context", {}), out


def us(v):
    if v is None:
        return "n/a"
    if v >= 100:
        return "{:,.0f}".format(v)
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def count(v):
    if v is None:
        return "n/a"
    return "{:,.0f}".format(v) if abs(v - round(v)) < 0.05 else "{:,.1f}".format(v)


def ratio(fast, slow):
    if fast is None or slow is None or fast == 0:
        return "n/a"
    return "%.1fx" % (slow / fast)


def verdict(ok):
    return "**met**" if ok else "**missed**"


def get(results, name, key="us"):
    e = results.get(name)
    return None if e is None else e.get(key)


def noisy_line(results, keep=lambda name: True):
    noisy = sorted(((e.get("cv") or 0), n) for n, e in results.items() if keep(n) and (e.get("cv") or 0) > 0.05)
    if not noisy:
        return "Coefficient of variation of CPU time over the repetitions: at most 5% for every case."
    return "Coefficient of variation above 5%%: %s." % ", ".join(
        "%s %.0f%%" % (n, cv * 100) for cv, n in reversed(noisy))


def provider_section(runs):
    w = print
    context = runs[0][1]
    w("Fixture: %s messages (%s bytes of text, ids and arguments), %s tools (%s bytes of `tools`); "
      "request body %s bytes (nlohmann: %s); response %s bytes." % (
          context.get("fixture_messages"), context.get("fixture_history_bytes"), context.get("fixture_tools"),
          context.get("fixture_tools_bytes"), context.get("fixture_request_bytes"),
          context.get("fixture_request_bytes_nlohmann"), context.get("fixture_response_bytes")))
    w("")
    for label, _, r in runs:
        w("#### %s: one turn" % label)
        w("")
        w("| step | agentry us | allocs | nlohmann us | allocs | vs nlohmann | nlohmann, tools DOM cached us | allocs | vs cached |")
        w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        rows = [("(a) build the request", "request"), ("(b) parse the response", "parse"), ("(c) turn = a + b", "turn")]
        for title, step in rows:
            a = get(r, "agentry/" + step)
            n = get(r, "nlohmann/" + step)
            c = get(r, "nlohmann_cached_tools/" + step) if step != "parse" else None
            w("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                title, us(a), count(get(r, "agentry/" + step, "allocs")), us(n),
                count(get(r, "nlohmann/" + step, "allocs")), ratio(a, n),
                us(c) if c is not None else "(same)",
                count(get(r, "nlohmann_cached_tools/" + step, "allocs")) if c is not None else "",
                ratio(a, c) if c is not None else ""))
        w("")
        streams = sorted(k[len("agentry/sse/"):] for k in r if k.startswith("agentry/sse/") and not k.endswith("/all"))
        if streams:
            ctx = runs[0][1]
            w("#### %s: SSE assembly" % label)
            w("")
            w("| stream | bytes | events | agentry us | MB/s | allocs | nlohmann us | MB/s | allocs | vs nlohmann |")
            w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            total_bytes = 0
            total_events = 0
            for s in streams + ["all"]:
                if s == "all":
                    size, events, title = total_bytes, total_events, "all 5, one after another" if len(streams) == 5 else "all"
                else:
                    size, events = (int(x) for x in ctx.get("stream:" + s, "0 0").split())
                    total_bytes += size
                    total_events += events
                    title = s
                a = get(r, "agentry/sse/" + s)
                n = get(r, "nlohmann/sse/" + s)
                w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    title, "{:,}".format(size), events, us(a), "%.0f" % (size / a) if a else "n/a",
                    count(get(r, "agentry/sse/" + s, "allocs")), us(n), "%.0f" % (size / n) if n else "n/a",
                    count(get(r, "nlohmann/sse/" + s, "allocs")), ratio(a, n)))
            w("")
        else:
            w("SSE assembly: not run (no recorded streams).")
            w("")
        w(noisy_line(r, lambda name: not is_reasoning(name)))
        w("")


REASONING = (("responses", "OpenAI Responses"), ("anthropic", "Anthropic with thinking"))


def is_reasoning(name):
    return any("/%s/" % key in name for key, _ in REASONING)


def reasoning_section(runs):
    """The Responses and Anthropic-with-thinking turns (reasoning.hpp), one table per compiler."""
    w = print
    ctx = runs[0][1]
    for key, title in REASONING:
        c = lambda what: int(ctx.get("%s:%s" % (key, what), "0"))
        w("%s fixture: %d parts in the history (%s bytes); `tools` %s bytes; request body %s bytes (nlohmann: %s); "
          "response %s bytes (its parts %s bytes); stream %s bytes, %d events." % (
              title, c("history_parts"), "{:,}".format(c("history_parts_bytes")), "{:,}".format(c("tools_bytes")),
              "{:,}".format(c("request_bytes")), "{:,}".format(c("request_bytes_nlohmann")),
              "{:,}".format(c("response_bytes")), "{:,}".format(c("reply_parts_bytes")),
              "{:,}".format(c("stream_bytes")), c("stream_events")))
        w("")
    steps = [("(a) build the request", "request"), ("(b) parse the response", "parse"), ("(c) turn = a + b", "turn"),
             ("(d) assemble the stream", "sse")]
    for label, _, r in runs:
        w("#### %s: Responses API and Anthropic with thinking" % label)
        w("")
        w("| provider | step | agentry us | allocs | nlohmann us | allocs | vs nlohmann | tools DOM cached us | allocs "
          "| vs cached | parts parsed each request us | allocs | vs parts parsed |")
        w("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for key, title in REASONING:
            for step_title, step in steps:
                name = "%s/%s" % (key, step)
                a = get(r, "agentry/" + name)
                n = get(r, "nlohmann/" + name)
                cells = [title, step_title, us(a), count(get(r, "agentry/" + name, "allocs")), us(n),
                         count(get(r, "nlohmann/" + name, "allocs")), ratio(a, n)]
                for prefix in ("nlohmann_cached_tools/", "nlohmann_parts_text/"):
                    v = get(r, prefix + name)
                    cells += [us(v), count(get(r, prefix + name, "allocs")), ratio(a, v)] if v is not None else ["", "", ""]
                w("| %s |" % " | ".join(cells))
        w("")
        speeds = []
        for key, title in REASONING:
            size = int(ctx.get("%s:stream_bytes" % key, "0"))
            a, n = get(r, "agentry/%s/sse" % key), get(r, "nlohmann/%s/sse" % key)
            if a and n:
                speeds.append("%s %.0f MB/s (nlohmann %.0f MB/s)" % (title, size / a, size / n))
        if speeds:
            w("SSE assembly: %s." % "; ".join(speeds))
            w("")
        w(noisy_line(r, is_reasoning))
        w("")


def loop_numbers(r):
    total = get(r, "loop/restore_and_run")
    restore = get(r, "loop/restore")
    provider = get(r, "loop/provider_work")
    dispatch = get(r, "loop/dispatch")
    # Wall time: the calls run on other threads, whose CPU time the benchmark thread does not see.
    parallel = get(r, "loop/restore_and_run_parallel", "real_us")
    a_total = get(r, "loop/restore_and_run", "allocs")
    a_restore = get(r, "loop/restore", "allocs")
    a_provider = get(r, "loop/provider_work", "allocs")
    a_dispatch = get(r, "loop/dispatch", "allocs")
    per_turn = (total - restore) / 2 if total is not None and restore is not None else None
    own = per_turn - provider / 2 - dispatch / 2 if per_turn is not None and provider and dispatch else None
    real_restore = get(r, "loop/restore", "real_us")
    par_turn = (parallel - real_restore) / 2 if parallel is not None and real_restore is not None else None
    allocs_turn = (a_total - a_restore) / 2 if a_total is not None and a_restore is not None else None
    own_allocs = allocs_turn - a_provider / 2 - a_dispatch / 2 if allocs_turn is not None and a_provider is not None else None
    return {
        "total": total, "restore": restore, "provider": provider, "dispatch": dispatch, "per_turn": per_turn,
        "own": own, "parallel_turn": par_turn, "a_total": a_total, "a_restore": a_restore, "a_provider": a_provider,
        "a_dispatch": a_dispatch, "a_turn": allocs_turn, "a_own": own_allocs,
        "a_parallel": get(r, "loop/restore_and_run_parallel", "allocs"),
    }


def loop_section(runs):
    w = print
    ctx = runs[0][1]
    w("Restored: %s messages (%s bytes of saved JSON); requests of the run: %s messages." % (
        ctx.get("restored_messages"), ctx.get("saved_bytes"), " then ".join(ctx.get("request_messages", "").split())))
    w("")
    w("| measurement | " + " | ".join("%s us | allocs" % label for label, _, _ in runs) + " |")
    w("| --- | " + " | ".join("---: | ---:" for _ in runs) + " |")
    nums = [loop_numbers(r) for _, _, r in runs]
    rows = [
        ("restore (19 messages) + run (2 turns)", "total", "a_total"),
        ("restore alone", "restore", "a_restore"),
        ("**per turn** = (run - restore) / 2", "per_turn", "a_turn"),
        ("of which openai::request + openai::parse (per turn)", None, None),
        ("of which registry::call of 2 tools (per turn)", None, None),
        ("of which the loop itself (per turn)", "own", "a_own"),
        ("per turn with parallel_tool_calls (a thread per extra call), wall time", "parallel_turn", None),
    ]
    for title, key, akey in rows:
        cells = []
        for n in nums:
            if title.startswith("of which openai"):
                cells += [us(n["provider"] / 2 if n["provider"] else None),
                          count(n["a_provider"] / 2 if n["a_provider"] is not None else None)]
            elif title.startswith("of which registry"):
                cells += [us(n["dispatch"] / 2 if n["dispatch"] else None),
                          count(n["a_dispatch"] / 2 if n["a_dispatch"] is not None else None)]
            elif key == "parallel_turn":
                a = n["a_parallel"]
                cells += [us(n[key]), count((a - n["a_restore"]) / 2 if a is not None and n["a_restore"] is not None else None)]
            else:
                cells += [us(n[key]), count(n[akey]) if akey else ""]
        w("| %s | %s |" % (title, " | ".join(cells)))
    w("")
    for label, _, r in runs:
        w("%s: %s" % (label, noisy_line(r)))
    w("")
    return nums


def targets(provider_runs, loop_runs):
    w = print
    labels = []
    for label, _, _ in provider_runs + loop_runs:
        if label not in labels:
            labels.append(label)
    provider = {label: r for label, _, r in provider_runs}
    loop = {label: r for label, _, r in loop_runs}
    w("| target | " + " | ".join(labels) + " |")
    w("| --- | " + " | ".join("---" for _ in labels) + " |")

    def turn(r):
        t = get(r, "agentry/turn")
        return "n/a" if t is None else "%s us: %s" % (us(t), verdict(t <= TARGET_TURN_US))

    def versus(r):
        t, n, c = get(r, "agentry/turn"), get(r, "nlohmann/turn"), get(r, "nlohmann_cached_tools/turn")
        if not t or not n:
            return "n/a"
        ok = n / t >= TARGET_VS_NLOHMANN and (c is None or c / t >= TARGET_VS_NLOHMANN)
        return "%s (%s with the cached DOM): %s" % (ratio(t, n), ratio(t, c), verdict(ok))

    def per_turn(r):
        n = loop_numbers(r)
        if n["per_turn"] is None:
            return "n/a"
        return "%s us: %s" % (us(n["per_turn"]), verdict(n["per_turn"] <= TARGET_LOOP_TURN_US))

    rows = []
    if provider_runs:
        rows.append(("turn (a + b) <= %.0f us" % TARGET_TURN_US, provider, turn))
        rows.append(("turn >= %.0fx faster than nlohmann" % TARGET_VS_NLOHMANN, provider, versus))
    if loop_runs:
        rows.append(("loop, per turn <= %.0f us" % TARGET_LOOP_TURN_US, loop, per_turn))
    for title, runs, cell in rows:
        w("| %s | %s |" % (title, " | ".join(cell(runs[label]) if label in runs else "not measured" for label in labels)))
    w("")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--provider", action="append", default=[], help="LABEL=provider.json")
    parser.add_argument("--loop", action="append", default=[], help="LABEL=loop.json")
    args = parser.parse_args()

    def read(specs):
        runs = []
        for spec in specs:
            label, path = spec.split("=", 1)
            context, results = load(path)
            runs.append((label, context, results))
        return runs

    provider_runs = read(args.provider)
    loop_runs = read(args.loop)
    chat_runs = [run for run in provider_runs if "agentry/request" in run[2]]
    reasoning_runs = [run for run in provider_runs if "agentry/responses/request" in run[2]]
    if chat_runs:
        print("### Provider turn")
        print("")
        provider_section(chat_runs)
    if reasoning_runs:
        print("### The Responses API and Anthropic with thinking blocks")
        print("")
        reasoning_section(reasoning_runs)
    provider_runs = chat_runs
    if loop_runs:
        print("### Loop overhead")
        print("")
        loop_section(loop_runs)
    if provider_runs or loop_runs:
        print("### Targets")
        print("")
        targets(provider_runs, loop_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
