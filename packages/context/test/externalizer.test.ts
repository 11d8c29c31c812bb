import { ArtifactRefSchema, hasErrorCode } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { Externalizer, LossReceiptSchema, tagInjected, type ModelHint } from "../src/index.js";
import { bigLog, memoryStore } from "./helpers.js";

const session = "sess-ext";

describe("Externalizer", () => {
  it("keeps a small result inline, unchanged", async () => {
    const ext = new Externalizer({ store: memoryStore() });
    const r = await ext.externalize({ session, tool: "ls", result: "a.txt\nb.txt\n" });
    expect(r.action).toBe("inline");
    expect(r.content).toBe("a.txt\nb.txt\n");
    expect(r.entry).toMatchObject({ role: "tool", tool_name: "ls", content: "a.txt\nb.txt\n" });
    expect(r.entry.details).toBeUndefined();
  });

  it("stashes a large result and gives the model {artifact_reference, summary, hint, size_bytes} with the short ref", async () => {
    const store = memoryStore();
    const ext = new Externalizer({ store });
    const log = bigLog(50_000);
    const r = await ext.externalize({ session, tool: "run_tests", result: log, args: { path: "." }, callId: "c1" });
    expect(r.action).toBe("stashed");
    expect(r.reason).toMatch(/over 2000 chars/);
    const hint = JSON.parse(r.content) as ModelHint;
    expect(hint.artifact_reference).toMatch(/^art:[0-9a-f]{12}$/);
    expect(hint.size_bytes).toBe(Buffer.byteLength(log));
    expect(hint.summary.length).toBeGreaterThan(0);
    expect(hint.preview!.length).toBeLessThanOrEqual(400 + 5);
    expect(hint.hint).toContain(`artifacts_get with {"ref":"${hint.artifact_reference}","selector":`);
    expect(r.content.length).toBeLessThan(1_500);
    // transcript line: reference, no payload
    const ref = ArtifactRefSchema.parse(r.entry.details!.artifactRef);
    expect(r.entry.content).toBe("");
    expect(r.entry.tool_call_id).toBe("c1");
    expect(ref.short_ref).toBe(hint.artifact_reference);
    expect(await store.getText(ref.short_ref, { session })).toBe(log);
    const record = await store.getRecord(ref.artifact_id, { session }); // tool info is the session's (per-session metadata)
    expect(record.tool).toEqual({ name: "run_tests", args: { path: "." } });
    expect(record.type).toBe("tool_output");
  });

  it("stashes on the line threshold and on structure (JSON, HTML, PDF text)", async () => {
    const ext = new Externalizer({ store: memoryStore() });
    const manyLines = "x\n".repeat(250);
    expect((await ext.externalize({ session, tool: "t", result: manyLines })).reason).toMatch(/over 200 lines/);
    const json = { items: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}` })) };
    const rj = await ext.externalize({ session, tool: "api", result: json });
    expect(rj.action).toBe("stashed");
    expect(rj.reason).toMatch(/over|structured/);
    expect(rj.artifactRef!.payload).toBe("json");
    expect((JSON.parse(rj.content) as ModelHint).hint).toContain('"mode":"jsonpath"');
    const html = `<!doctype html><html><head><title>Orders</title></head><body>${"<p>row</p>".repeat(80)}</body></html>`;
    const rh = await ext.externalize({ session, tool: "browse", result: html });
    expect(rh.action).toBe("stashed");
    expect(rh.reason).toMatch(/structured text\/html/);
    const pdf = `%PDF-1.7 extracted text ${"lorem ipsum ".repeat(60)}`;
    expect((await ext.externalize({ session, tool: "pdf", result: pdf })).reason).toMatch(
      /structured application\/pdf/,
    );
    // a tiny JSON answer stays inline: its reference would cost more than it
    expect((await ext.externalize({ session, tool: "api", result: { ok: true } })).action).toBe("inline");
  });

  it("applies per-tool thresholds and exclusions", async () => {
    const ext = new Externalizer({
      store: memoryStore(),
      config: {
        externalize: {
          excludeTools: ["shell"],
          tools: { grep: { maxInlineChars: 100 }, secrets_scan: { always: true }, big_ok: { exclude: true } },
        },
      },
    });
    const medium = "m".repeat(500);
    expect((await ext.externalize({ session, tool: "grep", result: medium })).action).toBe("stashed");
    expect((await ext.externalize({ session, tool: "other", result: medium })).action).toBe("inline");
    expect((await ext.externalize({ session, tool: "secrets_scan", result: "tiny" })).action).toBe("stashed");
    const big = bigLog(20_000);
    expect((await ext.externalize({ session, tool: "shell", result: big })).reason).toBe("tool shell is excluded");
    expect((await ext.externalize({ session, tool: "big_ok", result: big })).action).toBe("inline");
  });

  it("never externalizes artifacts_get results or injected context (no self-ingest)", async () => {
    const ext = new Externalizer({ store: memoryStore() });
    const big = bigLog(30_000);
    expect((await ext.externalize({ session, tool: "artifacts_get", result: big })).action).toBe("inline");
    const tagged = await ext.externalize({ session, tool: "recall", result: tagInjected(big) });
    expect(tagged.action).toBe("inline");
    expect(tagged.entry.details?.injected).toBe(true);
    expect((await ext.externalize({ session, tool: "recall", result: big, injected: true })).action).toBe("inline");
  });

  it("takes the budget's maxInlineArtifactChars as a ceiling and counts tokens (fail closed)", async () => {
    const ext = new Externalizer({
      store: memoryStore(),
      config: { externalize: { maxInlineChars: 8_000 } },
      maxInlineArtifactChars: 1_000,
    });
    expect((await ext.externalize({ session, tool: "t", result: "a".repeat(1_500) })).reason).toBe(
      "over 1000 chars (1500)",
    );
    const counted = new Externalizer({
      store: memoryStore(),
      config: { externalize: { maxInlineTokens: 10 } },
      countTokens: (t) => t.split(" ").length,
    });
    expect((await counted.externalize({ session, tool: "t", result: "w ".repeat(20) })).reason).toMatch(
      /over 10 tokens/,
    );
    const failing = new Externalizer({
      store: memoryStore(),
      countTokens: () => {
        throw new Error("tokenizer down");
      },
    });
    expect((await failing.externalize({ session, tool: "t", result: "short" })).reason).toBe(
      "token count failed (fail closed)",
    );
  });

  it("redacts before storing and lists the kinds on the record, the reference and the hint", async () => {
    const store = memoryStore();
    const ext = new Externalizer({ store });
    const secret = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
    const text = `${bigLog(5_000)}GITHUB_TOKEN used: ${secret}\n`;
    const r = await ext.externalize({ session, tool: "env", result: text });
    expect(r.action).toBe("stashed");
    expect(r.redactions).toEqual(["github_token"]);
    const stored = await store.getText(r.artifactRef!.artifact_id);
    expect(stored).not.toContain(secret);
    expect(stored).toContain("[REDACTED:github_token]");
    expect((await store.getRecord(r.artifactRef!.artifact_id)).redactions).toEqual(["github_token"]);
    expect(r.entry.details?.redactions).toEqual(["github_token"]);
    expect(r.hint!.redacted).toEqual(["github_token"]);
    // inline results are redacted too: the transcript is persisted
    const inline = await ext.externalize({ session, tool: "env", result: `token ${secret}` });
    expect(inline.action).toBe("inline");
    expect(inline.content).toBe("token [REDACTED:github_token]");
  });

  it("past the deadline does not store: truncates and says so with a loss receipt", async () => {
    const store = memoryStore();
    const ext = new Externalizer({ store });
    const log = bigLog(30_000);
    const r = await ext.externalize({ session, tool: "t", result: log, deadline: Date.now() - 1 });
    expect(r.action).toBe("fallback");
    const loss = LossReceiptSchema.parse(r.loss);
    expect(loss.reason).toBe("deadline");
    expect(loss.bytes_total).toBe(Buffer.byteLength(log));
    expect(loss.bytes_dropped).toBe(loss.bytes_total - loss.bytes_kept);
    expect(loss.bytes_kept).toBe(2_000);
    expect(r.content).toContain("[aref: output truncated");
    expect(r.content).toContain(`${loss.bytes_dropped} bytes dropped`);
    expect(r.entry.details?.loss).toEqual(loss);
    await expect(store.listReferences(session)).rejects.toSatisfy((e) => hasErrorCode(e, "UNKNOWN_SESSION"));
    const aborted = new AbortController();
    aborted.abort();
    expect((await ext.externalize({ session, tool: "t", result: log, deadline: aborted.signal })).loss?.reason).toBe(
      "deadline",
    );
    expect(
      (await ext.externalize({ session, tool: "t", result: log, deadline: new Date(Date.now() + 60_000) })).action,
    ).toBe("stashed");
  });

  it("a put still running at the deadline is abandoned: fallback with reason deadline", async () => {
    // A driver whose writes wait on a gate: stands in for a store slower than the turn (a latency we cannot cause on demand).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    class GatedDriver extends MemoryDriver {
      override async putIfAbsent(key: string, bytes: Uint8Array) {
        if (key.startsWith("blobs/")) await gate;
        return super.putIfAbsent(key, bytes);
      }
    }
    const ext = new Externalizer({ store: new ArtifactStore({ driver: new GatedDriver() }) });
    const r = await ext.externalize({ session, tool: "t", result: bigLog(10_000), deadline: Date.now() + 30 });
    release();
    expect(r.action).toBe("fallback");
    expect(r.loss).toMatchObject({ reason: "deadline", error_code: "DEADLINE_EXCEEDED" });
  });

  it("the fallback never cuts a surrogate pair in half", async () => {
    const ext = new Externalizer({ store: memoryStore(), config: { externalize: { fallbackChars: 5 } } });
    const r = await ext.externalize({ session, tool: "t", result: `abcd😀${"x".repeat(3_000)}`, deadline: 0 });
    expect(r.content.startsWith("abcd\n[aref: output truncated")).toBe(true);
    expect(r.loss!.chars_kept).toBe(4);
  });

  it("when storing fails, truncates with a loss receipt naming the error", async () => {
    const ext = new Externalizer({ store: new ArtifactStore({ driver: new MemoryDriver(), maxBytes: 10_000 }) });
    const r = await ext.externalize({ session, tool: "t", result: bigLog(40_000) });
    expect(r.action).toBe("fallback");
    expect(r.loss).toMatchObject({ reason: "store_failed", error_code: "TOO_LARGE" });
    expect(r.content).toMatch(/storing the output failed \(TOO_LARGE/);
  });

  it("reports each stash to onStash (e.g. for the dispatcher's index) and rejects a bad config", async () => {
    const seen: string[] = [];
    const ext = new Externalizer({
      store: memoryStore(),
      onStash: (s, input) => seen.push(`${input.tool}:${s.artifactRef.short_ref}`),
    });
    const r = await ext.externalize({ session, tool: "t", result: bigLog(9_000) });
    await ext.externalize({ session, tool: "t", result: "small" });
    expect(seen).toEqual([`t:${r.artifactRef!.short_ref}`]);
    expect(() => new Externalizer({ store: memoryStore(), config: { externalize: { maxInlineChars: -1 } } })).toThrow(
      /invalid context config: externalize\.maxInlineChars/,
    );
    expect(
      () =>
        new Externalizer({ store: memoryStore(), config: { redaction: { rules: [{ kind: "bad", pattern: "[" }] } } }),
    ).toThrow(/"bad" has an invalid regular expression/);
  });

  it("rejects a bad session id and a non-serializable result", async () => {
    const ext = new Externalizer({ store: memoryStore() });
    await expect(ext.externalize({ session: "../x", tool: "t", result: "x" })).rejects.toSatisfy((e) =>
      hasErrorCode(e, "INVALID_INPUT"),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(ext.externalize({ session, tool: "t", result: cyclic })).rejects.toThrow(/not JSON-serializable/);
  });

  it("keeps the model-facing reference under maxHintChars, even when escaping doubles the preview", async () => {
    const ext = new Externalizer({ store: memoryStore(), config: { externalize: { previewChars: 2_000 } } });
    const quotes = `${'"\\'.repeat(3_000)}\n`.repeat(3);
    const r = await ext.externalize({ session, tool: "t", result: quotes });
    expect(r.action).toBe("stashed");
    expect(r.content.length).toBeLessThanOrEqual(1_500);
    expect((JSON.parse(r.content) as ModelHint).preview ?? "").toBe(r.entry.details?.preview ?? "");
  });

  it("produces the same hint bytes for the same content (prompt-cache stable)", async () => {
    const store = memoryStore();
    const ext = new Externalizer({ store });
    const log = bigLog(9_000);
    const a = await ext.externalize({ session, tool: "t", result: log });
    const b = await ext.externalize({ session, tool: "t", result: log });
    expect(a.content).toBe(b.content);
  });
});
