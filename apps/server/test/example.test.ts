import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("examples/embed.ts runs as written", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--conditions=@artifact-refs/source",
        "--import",
        "tsx",
        fileURLToPath(new URL("../examples/embed.ts", import.meta.url)),
      ],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
      },
    );
    expect(stdout).toMatch(
      /^Loaded package\.json \(\d+\.\d KB\)\nreferenced 1 execution\(s\); context message of \d+ chars\n$/,
    );
  });
});
