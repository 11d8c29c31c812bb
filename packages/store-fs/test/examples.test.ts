import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("runs as written and prints what the README promises", async () => {
    const parent = await mkdtemp(join(tmpdir(), "aref-fs-example-"));
    try {
      const file = fileURLToPath(new URL("../examples/quickstart.ts", import.meta.url));
      const out = execFileSync(
        process.execPath,
        ["--conditions=@artifact-refs/source", "--import", "tsx", file, join(parent, "store")],
        { encoding: "utf8" },
      );
      expect(out).toMatch(/stored 27162 bytes as art:[0-9a-f]{12}/);
      expect(out).toMatch(/600 +\d+ +blobs\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/\1\2[0-9a-f]{60}\.gz/);
      expect(out).toMatch(/600 +\d+ +meta\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.json/);
      expect(out).toMatch(/600 +\d+ +refs\/demo\/([0-9a-f]{2})\/\1[0-9a-f]{62}\.json/);
      expect(out).toContain("identical: true");
      expect(out).toContain('"ok":true');
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
