// SPDX-License-Identifier: BSL-1.0
// The token benchmark's tools (tools.hpp) as zod 4 schemas, and their OpenAI tools array with
// `parameters` from z.toJSONSchema (its defaults: JSON Schema 2020-12, the output type).
import { z } from "zod";

const severity = z.enum(["low", "normal", "high", "urgent"]);
const customer = z.object({ name: z.string(), email: z.string() });

const ticket = z.object({
    title: z.string(),
    description: z.string(),
    level: severity.describe("How urgent the customer's problem is"),
    assignee: z.string().optional().describe("Agent to assign; the queue decides when absent"),
    tags: z.array(z.string()),
    reporter: customer,
    order_id: z.int(),
    amount: z.number().describe("Order value in EUR"),
});

const add = z.object({ a: z.int(), b: z.int() });

const hour = z.int().min(0).max(23);
const flight_search = z.object({
    origin: z.string().regex(/^[A-Z]{3}$/).describe("IATA airport code of departure, e.g. CDG"),
    cabin: z.enum(["economy", "premium_economy", "business", "first"]).describe("Cabin class"),
    passengers: z.int().min(1).max(9).describe("Number of passengers"),
    max_price: z.number().min(0).max(100000).describe("Highest acceptable fare in EUR"),
    refundable: z.boolean().describe("Only refundable fares"),
    max_stops: z.int().min(0).max(3).optional().describe("Most stops accepted; any when absent"),
    airlines: z.array(z.string()).min(0).max(5).describe("IATA airline codes to prefer"),
    depart_window: z.object({ earliest: hour, latest: hour }).describe("Acceptable departure hours, local time"),
    note: z.string().min(0).max(120).describe("Free-text request for the agent"),
});

const tools = [
    ["create_ticket", "Open a customer support ticket.", ticket],
    ["add", "Add two integers.", add],
    ["search_flights", "Search flights from an airport.", flight_search],
].map(([name, description, schema]) => ({
    type: "function",
    function: { name, description, parameters: z.toJSONSchema(schema), strict: false },
}));

/// The tools arrays of the measured sets, as print_payloads.cpp names them.
export const zod_sets = { ticket_add: tools.slice(0, 2), flights: tools.slice(2), all: tools };
