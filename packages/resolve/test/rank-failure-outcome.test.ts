import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

// Two calls to the same service, the earlier one refused, the later one fine; neither text says "error".
const session = [
  {
    id: "k1",
    tool_name: "http_get",
    tool_args: { url: "https://quotes.example.org/v2/rates?pair=EURNOK" },
    label: "GET quotes.example.org/v2/rates",
    summary: "HTTP 403 Forbidden: key not allowed for pair EURNOK",
    result_type: "error" as const,
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "notes/trip.md" },
    label: "notes/trip.md",
    summary: "Oslo 3 nights, budget in NOK, flights booked",
    result_type: "success" as const,
  },
  {
    id: "k3",
    tool_name: "http_get",
    tool_args: { url: "https://quotes.example.org/v2/rates?pair=EURSEK" },
    label: "GET quotes.example.org/v2/rates",
    summary: "HTTP 200: EURSEK 11.52 at 09:14 UTC",
    result_type: "success" as const,
  },
];

describe("a failure word the session never writes", () => {
  it("picks the failed one of two records the other words name", () => {
    const text = "the quotes error, what did it say";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("k1");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("k1");
  });

  it("alone points at nothing: a failed record the other words do not name gains nothing", () => {
    const r = resolveReferences("the trip notes error, what was it", session);
    expect(r.candidates[0]?.id).toBe("k2");
  });
});
