import { runExample } from "@artifact-refs/tooling/testing/examples";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("runs as written", () => {
    const out = runExample(new URL("../examples/quickstart.ts", import.meta.url));
    expect(out).toContain("aref:v1:sha256:3f9b2a1c8e4d7f6a");
    expect(out).toContain("art:3f9b2a1c8e4d");
    expect(out).toContain("INVALID_HANDLE: invalid artifact reference");
    expect(out).toMatch(/invalid hot state: risk_level:/);
  });
});
