#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Python baseline of the dispatch benchmark: one tool call as popular Python tool registries
make it.

    python_baseline.py FIXTURE.json [--repeat 5] [--json]

FIXTURE.json is what agentry_dispatch_print_fixture prints: for each fixture tool, the JSON
Schema agentry generates for its arguments and the argument text. For each tool, one call is

    arguments = json.loads(text)                    # parse
    validator.validate(arguments)                   # jsonschema, Draft 2020-12, the same schema
    result = TOOLS[name](**arguments)               # look the tool up and call it
    content = json.dumps(result, separators=(",", ":"))   # the result for the model

timed with timeit on the process's CPU time (time.process_time: the C++ benchmarks report CPU
time too, and other processes on a loaded machine do not count; autorange for the number of
calls per run, then --repeat runs; the median run is reported, in ns per call). Two variants of
the validation are timed:

    prebuilt   a Draft202012Validator built once per tool, as a registry that caches it does;
    per_call   jsonschema.validate(arguments, schema, cls=Draft202012Validator), as written in
               many tool decorators: the schema is checked and a validator built on every call.

The tools do what the C++ tools of fixture.hpp do. Before timing, every case is checked: the
valid arguments are accepted and give the expected result, and arguments with a broken
constraint are rejected.

Needs the jsonschema package (Debian: python3-jsonschema; run with /usr/bin/python3).
"""

import argparse
import json
import platform
import statistics
import sys
import time
import timeit

import jsonschema
from jsonschema import Draft202012Validator


def search_flights(origin, cabin, passengers, max_price, refundable, airlines, depart_window, note, max_stops=None):
    return {
        "offer_id": "AF1234",
        "from": origin,
        "price": min(max_price, 1187.4),
        "stops": max_stops if max_stops is not None else 0,
        "refundable": refundable,
        "departs": "08:35" if depart_window["earliest"] < 9 else "10:05",
    }


def quote_fare(cabin, passengers, base_fare, refundable, depart_window, max_stops=None):
    fare = base_fare * passengers
    taxes = 41.5 * passengers
    return {"total": fare + taxes, "taxes": taxes, "passengers": passengers, "refundable": refundable}


TOOLS = {"search_flights": search_flights, "quote_fare": quote_fare}

EXPECTED = {
    "search_flights": {"offer_id": "AF1234", "from": "CDG", "price": 1187.4, "stops": 1, "refundable": True,
                       "departs": "08:35"},
    "quote_fare": {"total": 1362.75, "taxes": 124.5, "passengers": 3, "refundable": False},
}

# A broken constraint of each kind, applied to the valid arguments.
BREAK = {
    "search_flights": [
        ("origin", "cdg"), ("cabin", "coach"), ("passengers", 10), ("max_price", -1), ("refundable", "yes"),
        ("max_stops", 4), ("airlines", ["A", "B", "C", "D", "E", "F"]), ("note", "x" * 121), ("seat", "12A"),
        ("passengers", 2.5),
    ],
    "quote_fare": [("cabin", "coach"), ("passengers", 0), ("base_fare", -1), ("extra", 1)],
}


def make_calls(schemas):
    validators = {name: Draft202012Validator(schema) for name, schema in schemas.items()}

    def call_prebuilt(name, text):
        arguments = json.loads(text)
        validators[name].validate(arguments)
        result = TOOLS[name](**arguments)
        return json.dumps(result, separators=(",", ":"))

    def call_per_call(name, text):
        arguments = json.loads(text)
        jsonschema.validate(arguments, schemas[name], cls=Draft202012Validator)
        result = TOOLS[name](**arguments)
        return json.dumps(result, separators=(",", ":"))

    return {"prebuilt": call_prebuilt, "per_call": call_per_call}


def self_test(calls, fixture):
    for name, entry in fixture.items():
        for variant, call in calls.items():
            content = call(name, entry["arguments"])
            if json.loads(content) != EXPECTED[name]:
                sys.exit("python_baseline: %s/%s gave %s" % (variant, name, content))
            for key, value in BREAK[name]:
                arguments = json.loads(entry["arguments"])
                arguments[key] = value
                try:
                    call(name, json.dumps(arguments))
                except jsonschema.ValidationError:
                    continue
                sys.exit("python_baseline: %s/%s accepted %s=%r" % (variant, name, key, value))


def time_call(call, name, text, repeat):
    timer = timeit.Timer(lambda: call(name, text), timer=time.process_time)
    number, _ = timer.autorange()
    runs = timer.repeat(repeat=repeat, number=number)
    per_call = [run / number * 1e9 for run in runs]
    return statistics.median(per_call), number


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fixture", help="the output of agentry_dispatch_print_fixture")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (default 5; the median is kept)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = parser.parse_args()

    with open(args.fixture, encoding="utf-8") as f:
        fixture = json.load(f)
    schemas = {name: entry["schema"] for name, entry in fixture.items()}
    calls = make_calls(schemas)
    self_test(calls, fixture)

    results = {}
    for name in sorted(fixture):
        for variant, call in calls.items():
            ns, number = time_call(call, name, fixture[name]["arguments"], args.repeat)
            results["%s/%s" % (variant, name)] = {"ns_per_call": ns, "calls_per_run": number}

    try:
        from importlib.metadata import version
        jsonschema_version = version("jsonschema")
    except Exception:  # noqa: BLE001 - only for the report
        jsonschema_version = "unknown"
    info = {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "jsonschema": jsonschema_version, "repeat": args.repeat, "results": results}
    if args.json:
        print(json.dumps(info, indent=1))
    else:
        print("Python %s (%s), jsonschema %s" % (info["python"], info["implementation"], jsonschema_version))
        for key, r in results.items():
            print("%-28s %10.0f ns per call  (%d calls per run, median of %d runs)"
                  % (key, r["ns_per_call"], r["calls_per_run"], args.repeat))


if __name__ == "__main__":
    main()
