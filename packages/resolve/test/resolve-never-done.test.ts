// "we never did it before", "i have never used X before": what was never done is no action of the session and
// "before" there is "ever", no earlier record. Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl get hpa -n shop" },
    summary: "checkout-hpa: 3/10 replicas, cpu 41%/70%",
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "deploy/checkout.yaml" },
    summary: "Deployment checkout: resources.requests.cpu 250m, limits.cpu 1",
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl top pods -n shop" },
    summary: "checkout-7f9c: cpu 180m mem 310Mi; cart-5d2b: cpu 40m mem 120Mi",
  },
];
const resolved = (text: string) => resolveReferences(text, session).candidates;

describe("what was never done", () => {
  it("refers to nothing", () => {
    expect(resolved("could the replicas scale on queue length instead? we never tried that before")).toEqual([]);
    expect(resolved("any way to get paged when memory climbs? i have never set that up before")).toEqual([]);
  });

  it("what was done earlier still points back", () => {
    expect(resolved("the pods you listed before, how much memory did cart use?")[0]?.id).toBe("k3");
  });
});
