import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  Externalizer,
  LossReceiptSchema,
  TranscriptWriter,
  readTranscript,
  rehydrateTranscript,
} from "../src/index.js";
import { describeWithData, sharedDataFiles } from "@artifact-refs/tooling/testing/shared-data";
import { TRAJECTORY_DIR, memoryStore, tempDir } from "./helpers.js";

interface Message {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  tool_name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string | null; name: string; arguments: string }[];
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

const files = sharedDataFiles("trajectories", ".jsonl");

describeWithData("trajectories", "real agent trajectories through the writer and back", () => {
  it("found the 17 trajectories", () => {
    expect(files).toHaveLength(17);
  });

  it.each(files)("%s: every tool output is stashed or kept, and rehydrates byte-exact", async (file) => {
    const messages = readFileSync(join(TRAJECTORY_DIR, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Message);
    const store = memoryStore();
    const path = join(dir, file);
    const writer = new TranscriptWriter({ path, session: "replay", externalizer: new Externalizer({ store }) });
    let stashed = 0;
    let fallbacks = 0;
    for (const m of messages) {
      if (m.role !== "tool") {
        await writer.append(m);
        continue;
      }
      const r = await writer.appendToolResult({
        tool: m.tool_name ?? "tool",
        result: m.content,
        ...(m.tool_call_id ? { callId: m.tool_call_id } : {}),
      });
      expect(r.redactions).toEqual([]); // the real trajectories hold no secrets the rules flag
      if (r.action === "stashed") stashed++;
      if (r.action === "fallback") {
        // Only an output over the store's 512 KiB cap may fall back, and it says so.
        fallbacks++;
        const loss = LossReceiptSchema.parse(r.loss);
        expect(loss).toMatchObject({ reason: "store_failed", error_code: "TOO_LARGE" });
        expect(Buffer.byteLength(m.content)).toBeGreaterThan(512 * 1024);
        expect(loss.bytes_dropped).toBe(Buffer.byteLength(m.content) - loss.bytes_kept);
      }
    }
    const back = await rehydrateTranscript(await readTranscript(path), { store });
    expect(back.errors).toEqual([]);
    expect(back.rehydrated).toBe(stashed);
    expect(back.entries).toHaveLength(messages.length);
    back.entries.forEach((e, i) => {
      if (e.details?.loss) return;
      expect(e.content, `${file} message ${i + 1}`).toBe(messages[i]!.content);
    });
    const large = messages.filter((m) => m.role === "tool" && m.content.length > 2_000).length;
    expect(stashed + fallbacks).toBeGreaterThanOrEqual(large);
  });
});
