import { describe, expect, it } from "vitest";
import { runReadmeQuickstart } from "@artifact-refs/tooling/testing/readme-example";

describe("README example", () => {
  it("is examples/quickstart.ts and prints what its comments say", () => {
    const { out } = runReadmeQuickstart(new URL("..", import.meta.url));
    expect(out.split("\n").slice(0, 5)).toEqual(["3", "1", "true", "true", "true"]);
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check
});
