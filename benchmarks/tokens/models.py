# SPDX-License-Identifier: BSL-1.0
# The token benchmark's tools (tools.hpp) as Pydantic 2 models. Prints one line per payload:
#   <kind>/<set><TAB><OpenAI tools array as compact JSON>
# for the sets ticket_add, flights and all (as print_payloads.cpp), then "version<TAB>2.x.y".
# pydantic_strict is the tools array as the OpenAI Python SDK's
# pydantic_function_tool(model, name=..., description=...) builds it: model_json_schema() made
# strict (make_strict below), "strict": true. pydantic is model_json_schema() as it is, with
# "strict": false. Exit status 77 with a reason when pydantic 2 is not installed.
import copy
import enum
import json
import sys
from typing import Annotated, Optional

try:
    import pydantic
    from pydantic import BaseModel, Field
except ImportError:
    print("SKIP: python3 has no pydantic (pip install 'pydantic>=2')")
    sys.exit(77)
if not pydantic.VERSION.startswith("2."):
    print(f"SKIP: pydantic {pydantic.VERSION} is not pydantic 2")
    sys.exit(77)


class Severity(str, enum.Enum):
    low = "low"
    normal = "normal"
    high = "high"
    urgent = "urgent"


class Customer(BaseModel):
    name: str
    email: str


class Ticket(BaseModel):
    title: str
    description: str
    level: Severity = Field(description="How urgent the customer's problem is")
    assignee: Optional[str] = Field(default=None, description="Agent to assign; the queue decides when absent")
    tags: list[str]
    reporter: Customer
    order_id: int
    amount: float = Field(description="Order value in EUR")


class Add(BaseModel):
    a: int
    b: int


class CabinClass(str, enum.Enum):
    economy = "economy"
    premium_economy = "premium_economy"
    business = "business"
    first = "first"


class HourWindow(BaseModel):
    earliest: Annotated[int, Field(ge=0, le=23)]
    latest: Annotated[int, Field(ge=0, le=23)]


class FlightSearch(BaseModel):
    origin: str = Field(pattern="^[A-Z]{3}$", description="IATA airport code of departure, e.g. CDG")
    cabin: CabinClass = Field(description="Cabin class")
    passengers: int = Field(ge=1, le=9, description="Number of passengers")
    max_price: float = Field(ge=0, le=100000, description="Highest acceptable fare in EUR")
    refundable: bool = Field(description="Only refundable fares")
    max_stops: Optional[Annotated[int, Field(ge=0, le=3)]] = Field(
        default=None, description="Most stops accepted; any when absent")
    airlines: list[str] = Field(min_length=0, max_length=5, description="IATA airline codes to prefer")
    depart_window: HourWindow = Field(description="Acceptable departure hours, local time")
    note: str = Field(min_length=0, max_length=120, description="Free-text request for the agent")


TOOLS = [
    ("create_ticket", "Open a customer support ticket.", Ticket),
    ("add", "Add two integers.", Add),
    ("search_flights", "Search flights from an airport.", FlightSearch),
]


def resolve(root, ref):
    node = root
    for key in ref[2:].split("/"):
        node = node[key]
    return node


def make_strict(node, root):
    """The OpenAI SDK's strict form of a Pydantic schema, as its documentation and behaviour
    describe it: every object closed and all its properties required, single-entry allOf merged,
    `default: null` dropped, and a $ref with sibling keywords replaced by its target."""
    for defs_key in ("$defs", "definitions"):
        for sub in node.get(defs_key, {}).values():
            make_strict(sub, root)
    if node.get("type") == "object" and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if isinstance(node.get("properties"), dict):
        node["required"] = list(node["properties"])
        node["properties"] = {k: make_strict(v, root) for k, v in node["properties"].items()}
    if isinstance(node.get("items"), dict):
        node["items"] = make_strict(node["items"], root)
    if isinstance(node.get("prefixItems"), list):
        node["prefixItems"] = [make_strict(v, root) for v in node["prefixItems"]]
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [make_strict(v, root) for v in node["anyOf"]]
    if isinstance(node.get("allOf"), list):
        if len(node["allOf"]) == 1:
            node.update(make_strict(node.pop("allOf")[0], root))
        else:
            node["allOf"] = [make_strict(v, root) for v in node["allOf"]]
    if "default" in node and node["default"] is None:
        del node["default"]
    if "$ref" in node and len(node) > 1:
        target = copy.deepcopy(resolve(root, node["$ref"]))
        merged = {**target, **node}
        del merged["$ref"]
        node.clear()
        node.update(merged)
        return make_strict(node, root)
    return node


def tool(name, description, model, strict):
    schema = model.model_json_schema()
    if strict:
        schema = make_strict(schema, schema)
    # pydantic_function_tool's key order: name, strict, parameters, then description.
    function = {"name": name, "strict": strict, "parameters": schema, "description": description}
    return {"type": "function", "function": function}


SETS = {"ticket_add": TOOLS[:2], "flights": TOOLS[2:], "all": TOOLS}
for kind, strict in (("pydantic", False), ("pydantic_strict", True)):
    for set_name, tools in SETS.items():
        payload = json.dumps([tool(n, d, m, strict) for n, d, m in tools], separators=(",", ":"))
        print(f"{kind}/{set_name}\t{payload}")
print(f"version\t{pydantic.VERSION}")
