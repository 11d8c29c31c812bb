// Two positions compared ("X now vs the first <kind>"): the part that names a kind after its order word names the kind
// of the other part too. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl describe hpa web -n shop" },
    summary: "current replicas 3, cpu 85% of target 60%",
  },
  {
    id: "k2",
    tool_name: "http_get",
    tool_args: { url: 'http://prometheus.internal/api/v1/query?query=avg(container_cpu_usage{pod=~"web-.*"})' },
    summary: "200; series rising since 09:00",
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl scale deploy web --replicas 6 -n shop" },
    summary: "deployment.apps/web scaled",
  },
  {
    id: "k4",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl describe hpa web -n shop" },
    summary: "current replicas 6, cpu 52% of target 60%",
  },
];

describe("a kind named on one side of a comparison", () => {
  it("is the kind of the other side too", () => {
    const r = resolveReferences("cpu now vs the initial describe", session);
    expect(r.candidates.slice(0, 2).map((c) => c.id)).toEqual(["k4", "k1"]);
  });
});
