// "for a new service, grpc or rest?": a choice for something new, brought in with "a", is advice about the world.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "c1",
    tool_name: "read_file",
    tool_args: { path: "services/billing/api.proto" },
    summary: "grpc service Billing: Charge, Refund, ListInvoices",
    result_type: "success",
  },
  {
    id: "c2",
    tool_name: "web_search",
    tool_args: { query: "grpc vs rest latency internal services" },
    summary: "8 results: grpc lower latency with protobuf; rest simpler to debug",
    result_type: "success",
  },
];

describe("decide: a choice for something new", () => {
  it("refers to nothing", () => {
    expect(resolveReferences("for a brand new internal service, grpc or rest?", session).candidates).toEqual([]);
  });

  it("needs a word of newness: a choice between records said with 'for a …' is about them", () => {
    expect(
      resolveReferences("for a moment i forgot, was it the proto or the search that said rest?", session).candidates,
    ).not.toEqual([]);
  });

  it("a choice between records still resolves", () => {
    expect(resolveReferences("what did the search say about grpc vs rest latency?", session).candidates[0]?.id).toBe(
      "c2",
    );
  });
});
