// An order word over a tool kind the message names ("the first curl", "the earlier test run") ranges over every record
// of that kind, a shell command whose program does it ("curl …", "cargo test") as much as the tool's own records.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "execute_bash",
    tool_args: { command: "curl -sI https://shop.example/healthz" },
    summary: "HTTP/2 503; retry-after: 30",
    result_type: "success",
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "deploy/nginx.conf" },
    summary: "upstream shop_app { server 10.0.0.7:8080; }",
    result_type: "success",
  },
  {
    id: "k3",
    tool_name: "http_get",
    tool_args: { url: "https://shop.example/healthz" },
    summary: '200 OK: {"status":"up"}',
    result_type: "success",
  },
];

describe("decide: order words over a tool kind named outright", () => {
  it("count a shell command of that kind", () => {
    const r = resolveReferences("the very first curl, which status?", session);
    expect(r.candidates[0]?.id).toBe("k1");
  });

  it("still pick the latest of the kind", () => {
    const r = resolveReferences("the latest curl, which status?", session);
    expect(r.candidates[0]?.id).toBe("k3");
  });
});
