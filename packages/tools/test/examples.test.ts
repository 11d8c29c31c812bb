import { describe, expect, it } from "vitest";
import { runReadmeQuickstart } from "@artifact-refs/tooling/testing/readme-example";

describe("README example", () => {
  it("is examples/quickstart.ts and prints what its comments say", () => {
    const { out } = runReadmeQuickstart(new URL("..", import.meta.url));
    expect(out.split("\n").slice(0, 4)).toEqual([
      "notes.md:2: TODO: ship it",
      "Found 1 matches for /TODO/ in 1 files under .",
      "PERMISSION_DENIED",
      "FORBIDDEN",
    ]);
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check
});
