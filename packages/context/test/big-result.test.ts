// A 5 MB tool result (about 10x the one-blob size) is stored whole through the externalizer
// (chunked by the store), and artifacts_get pages through all of it, byte for byte.
import { describe, expect, it } from "vitest";
import { ArtifactsGetTool, Externalizer, type ModelHint } from "../src/index.js";
import { bigLog, memoryStore } from "./helpers.js";

const session = "sess-big";

describe("a 5 MB tool result", () => {
  it("is stored whole, and artifacts_get pages through all of it", async () => {
    const store = memoryStore();
    const log = bigLog(5 * 1024 * 1024);
    const r = await new Externalizer({ store }).externalize({ session, tool: "run_tests", result: log });
    expect(r.action).toBe("stashed");
    const hint = JSON.parse(r.content) as ModelHint;
    expect(hint.size_bytes).toBe(Buffer.byteLength(log));
    const record = await store.getRecord(hint.artifact_reference, { session });
    expect(record.chunked?.chunks).toBeGreaterThan(20);

    const tool = new ArtifactsGetTool({ store, session, maxChars: 100_000 });
    let selector: unknown = { mode: "range", start: 1 };
    const pages: string[] = [];
    while (selector !== undefined) {
      const page = (await tool.call({ ref: hint.artifact_reference, selector })) as { text: string; next?: unknown };
      pages.push(page.text);
      selector = page.next;
    }
    expect(pages.length).toBeGreaterThan(50);
    expect(pages.join("")).toBe(log);
    const tail = (await tool.call({ ref: hint.artifact_reference, selector: { mode: "headtail", tail: 1 } })) as {
      text: string;
    };
    expect(log.endsWith(tail.text.split("\n").at(-1)!)).toBe(true);
  });
});
