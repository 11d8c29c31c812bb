import { runReadmeQuickstart } from "@artifact-refs/tooling/testing/readme-example";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("is examples/quickstart.ts and runs as written, printing what its comments say", () => {
    const { block, out } = runReadmeQuickstart(new URL("..", import.meta.url));
    const lines = out.split("\n");
    const json = /^console\.log\(built\.json\);\n\/\/ (.+)$/m.exec(block)?.[1];
    expect(lines[0]).toBe(json);
    expect(lines[1]).toBe("104 347 false");
    expect(lines[2]).toBe("true");
    expect(lines[3]).toBe("TypeError");
    expect(lines[4]).toBe("5 true [ 'index_cap', 'evict_unpinned' ]");
    expect(lines[5]).toBe("12 index candidates beyond the cap");
    expect(lines[6]).toMatch(/^artifacts_get art:[0-9a-f]{12}$/);
    expect(out).toMatch(/hs_truncated: true/);
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check
});
