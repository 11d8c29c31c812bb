import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("runs as written", () => {
    const file = fileURLToPath(new URL("../examples/quickstart.ts", import.meta.url));
    const out = execFileSync(process.execPath, ["--conditions=source", "--import", "tsx", file], { encoding: "utf8" });
    expect(out).toContain("aref:v1:sha256:3f9b2a1c8e4d7f6a");
    expect(out).toContain("art:3f9b2a1c8e4d");
    expect(out).toContain("INVALID_HANDLE: invalid artifact reference");
    expect(out).toMatch(/invalid hot state: risk_level:/);
  });
});
