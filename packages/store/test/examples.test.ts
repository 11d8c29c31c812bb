import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("runs as written and prints what the README promises", () => {
    const file = fileURLToPath(new URL("../examples/quickstart.ts", import.meta.url));
    const out = execFileSync(process.execPath, ["--conditions=@artifact-refs/source", "--import", "tsx", file], {
      encoding: "utf8",
    });
    expect(out).toMatch(/stored \d+ bytes as art:[0-9a-f]{12} \(aref:v1:sha256:[0-9a-f]{64}\)/);
    expect(out).toContain("second put created a new blob: false");
    expect(out).toContain("identical: true");
    expect(out).toContain("dedupe_ratio: 2");
  });
});
