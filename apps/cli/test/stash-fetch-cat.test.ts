import { createHash } from "node:crypto";
import { FetchReceiptSchema, StashReceiptSchema } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { run, tempFile, tempStore } from "./helpers.js";

const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex");
const bigLog = `${Array.from({ length: 3000 }, (_, i) => `${String(i + 1).padStart(5, "0")} ${i % 97 === 0 ? "ERROR disk full" : "INFO step ok"}`).join("\n")}\n`;

describe("aref stash", () => {
  it("stashes a file and returns a valid receipt with the handle", async () => {
    const store = tempStore();
    const file = tempFile("build.log", bigLog);
    const r = await run(["stash", file, "--store", store, "--json"]);
    expect(r.code).toBe(0);
    const receipt = StashReceiptSchema.parse(r.json());
    expect(receipt.artifact_id).toBe(sha(bigLog));
    expect(receipt.handle).toBe(`aref:v1:sha256:${sha(bigLog)}`);
    expect(receipt.short_ref).toBe(`art:${sha(bigLog).slice(0, 12)}`);
    expect(receipt.bytes).toBe(Buffer.byteLength(bigLog));
    expect(receipt.deduped).toBe(false);
    expect(receipt.label).toBe("build.log");
    expect(receipt.type).toBe("log"); // from the extension
    expect(receipt.session).toBe("default");
    expect(receipt.expires_at).toBeUndefined();
    expect(receipt.summary).toMatch(/3,000 lines/);
  });

  it("prints the short ref alone on stdout without --json", async () => {
    const store = tempStore();
    const r = await run(["stash", tempFile("notes.md", "# hi\n"), "--store", store]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`art:${sha("# hi\n").slice(0, 12)}\n`);
    expect(r.err).toMatch(/stashed notes\.md as art:[0-9a-f]{12} \(5 B, doc, session default\)/);
  });

  it("reads standard input with `-` and with no file", async () => {
    const store = tempStore();
    const a = await run(["--store", store, "stash", "-", "--json", "--label", "piped", "--type", "tool_output"], {
      stdin: "from stdin\n",
    });
    expect(a.code).toBe(0);
    expect(a.json().artifact_id).toBe(sha("from stdin\n"));
    expect(a.json().label).toBe("piped");
    const b = await run(["--store", store, "stash", "--json"], { stdin: "from stdin\n" });
    expect(b.code).toBe(0);
    expect(b.json().deduped).toBe(true);
    expect(b.json().label).toBe("piped"); // a reference without its own label takes the record's
  });

  it("dedupes the same bytes and keeps each session's own label, ttl and type", async () => {
    const store = tempStore();
    const file = tempFile("x.txt", "same bytes");
    const first = (await run(["stash", file, "--store", store, "--json", "--session", "s1"])).json();
    const before = Date.now();
    const second = await run([
      "stash",
      file,
      "--store",
      store,
      "--json",
      "--session",
      "s2",
      "--label",
      "other",
      "--ttl",
      "2h",
      "--type",
      "result",
      "--mime",
      "text/x-note",
    ]);
    expect(second.code).toBe(0);
    const r = StashReceiptSchema.parse(second.json());
    expect(r.artifact_id).toBe(first.artifact_id);
    expect(r.deduped).toBe(false); // s2 never learns that s1 stored these bytes (per-session dedupe)
    expect(r.label).toBe("other");
    expect(r.type).toBe("result");
    expect(r.session).toBe("s2");
    const ttl = Date.parse(r.expires_at!) - before;
    expect(ttl).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 3600_000 + 60_000);
  });

  it("records the --mime it is given", async () => {
    const store = tempStore();
    const ref = (
      await run(["stash", tempFile("a.bin", "abc"), "--store", store, "--mime", "text/x-custom"])
    ).out.trim();
    const peek = await run(["peek", ref, "--store", store, "--json"]);
    expect(peek.json().record.mime).toBe("text/x-custom");
  });

  it("stores content over 512 KiB in chunks by default, and refuses content over --max-bytes naming the cap", async () => {
    const store = tempStore();
    const big = "z".repeat(600 * 1024);
    const over = await run(["stash", tempFile("big.txt", big), "--store", store, "--max-bytes", "500KiB"]);
    expect(over.code).toBe(6);
    expect(over.err).toMatch(/^aref: \/\S+\/big\.txt is 614400 bytes, over the store's cap of 512000 bytes/);
    expect(over.err).toMatch(/hint: .*--max-bytes/);
    const ok = await run(["stash", tempFile("big.txt", big), "--store", store, "--json"]);
    expect(ok.code).toBe(0);
    expect(ok.json().bytes).toBe(big.length);
    const cat = await run(["cat", ok.json().short_ref, "--store", store]);
    expect(cat.out).toBe(big);
  });

  it("stashes several files at once: one short ref each, and checks every file before storing any", async () => {
    const store = tempStore();
    const r = await run(["stash", tempFile("a.log", "alpha\n"), tempFile("b.log", "beta\n"), "--store", store]);
    expect(r.code).toBe(0);
    const refs = r.out.trim().split("\n");
    expect(refs).toHaveLength(2);
    expect((await run(["cat", refs[1]!, "--store", store])).out).toBe("beta\n");
    const missing = await run([
      "stash",
      tempFile("c.log", "gamma\n"),
      "no-such-file.log",
      "--store",
      store,
      "--session",
      "other",
    ]);
    expect(missing.code).not.toBe(0);
    expect((await run(["list", "--session", "other", "--store", store])).code).not.toBe(0); // nothing stored in that session
  });
});

describe("aref fetch", () => {
  it("never exceeds the default cap of 8,000 chars and says what it left out", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("build.log", bigLog), "--store", store])).out.trim();
    const r = await run(["fetch", ref, "--store", store, "--json"]);
    expect(r.code).toBe(0);
    const f = FetchReceiptSchema.parse(r.json());
    expect(f.selector).toEqual({ mode: "headtail", maxChars: 8000 });
    expect(f.text.length).toBeLessThanOrEqual(8000);
    expect(f.chars).toBe(f.text.length);
    expect(f.total_chars).toBe(bigLog.length);
    expect(f.total_lines).toBe(3000);
    expect(f.truncated).toBe(true);
    expect(f.omitted).toMatch(/lines \d/);
    expect(f.next).toMatchObject({ mode: "range" });
    expect(f.text.startsWith("00001 ERROR disk full\n")).toBe(true);
    expect(f.text.endsWith("03000 INFO step ok\n")).toBe(true);
  });

  it("prints the text on stdout and the omission and the next command on stderr", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("build.log", bigLog), "--store", store])).out.trim();
    const r = await run(["fetch", ref, "--store", store, "--max-chars", "500"]);
    expect(r.code).toBe(0);
    expect(r.out.length).toBeLessThanOrEqual(500);
    expect(r.err).toContain(`of ${bigLog.length.toLocaleString("en-US")} chars (3,000 lines)`);
    expect(r.err).toMatch(new RegExp(`next: aref fetch ${ref} --range \\d+: --max-chars 500`));
  });

  it("pages through the whole artifact by following `next` and rebuilds it exactly", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("build.log", bigLog), "--store", store])).out.trim();
    const first = FetchReceiptSchema.parse(
      (await run(["fetch", ref, "--store", store, "--range", "1:", "--json", "--max-chars", "5000"])).json(),
    );
    let text = first.text;
    let next = first.next;
    let pages = 1;
    while (next) {
      expect(next.mode).toBe("range");
      const args = [
        "fetch",
        ref,
        "--store",
        store,
        "--json",
        "--range",
        `${(next as { start: number }).start}:`,
        "--max-chars",
        "5000",
      ];
      const page = FetchReceiptSchema.parse((await run(args)).json());
      expect(page.text.length).toBeLessThanOrEqual(5000);
      text += page.text;
      next = page.next;
      pages++;
    }
    expect(pages).toBeGreaterThan(10);
    expect(text).toBe(bigLog);
  });

  it("supports --head, --tail, --grep with --context, --range and --jsonpath", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("build.log", bigLog), "--store", store])).out.trim();
    const head = (await run(["fetch", ref, "--store", store, "--head", "2", "--json"])).json();
    expect(head.text.startsWith("00001 ERROR disk full\n00002 INFO step ok\n[… lines 3-3,000")).toBe(true);
    const tail = (await run(["fetch", ref, "--store", store, "--tail", "1", "--json"])).json();
    expect(tail.text.endsWith("omitted; next: range start=1 …]\n03000 INFO step ok\n")).toBe(true);
    const grep = (
      await run(["fetch", ref, "--store", store, "--grep", "ERROR", "--context", "1", "--max-matches", "2", "--json"])
    ).json();
    expect(grep.selector).toMatchObject({ mode: "grep", pattern: "ERROR", context: 1, maxMatches: 2 });
    expect(grep.text).toContain("00098 ERROR disk full");
    expect(grep.text).toContain("00099 INFO step ok");
    expect(grep.next).toMatchObject({ mode: "grep", skip: 2 });
    const range = (await run(["fetch", ref, "--store", store, "--range", "5:6", "--json"])).json();
    expect(range.text).toBe("00005 INFO step ok\n00006 INFO step ok\n");
    const json = JSON.stringify({ items: [{ id: "a1" }, { id: "b2" }] });
    const jref = (await run(["stash", tempFile("d.json", json), "--store", store])).out.trim();
    const jp = await run(["fetch", jref, "--store", store, "--jsonpath", "$.items[*].id", "--json"]);
    expect(jp.code).toBe(0);
    expect(jp.json().text).toContain("a1");
    expect(jp.json().text).toContain("b2");
  });

  it("refuses binary content and points to aref cat", async () => {
    const store = tempStore();
    const bin = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe]);
    const ref = (await run(["stash", tempFile("img.png", bin), "--store", store])).out.trim();
    const r = await run(["fetch", ref, "--store", store]);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/is binary content \(8 bytes\), and fetch returns text only/);
    expect(r.err).toContain(`hint: use \`aref cat ${ref} > file\``);
    const j = await run(["fetch", ref, "--store", store, "--json"]);
    expect(j.json().error.code).toBe("UNSUPPORTED");
  });

  it("rejects mixed selectors and flags that belong to another selector", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("build.log", bigLog), "--store", store])).out.trim();
    const mixed = await run(["fetch", ref, "--store", store, "--grep", "x", "--range", "1:2", "--json"]);
    expect(mixed.code).toBe(4);
    expect(mixed.json().error.code).toBe("INVALID_SELECTOR");
    const dangling = await run(["fetch", ref, "--store", store, "--context", "2"]);
    expect(dangling.code).toBe(4);
    expect(dangling.err).toMatch(/--context applies to grep only/);
    const bad = await run(["fetch", ref, "--store", store, "--grep", "(unclosed"]);
    expect(bad.code).toBe(4);
    const over = await run(["fetch", ref, "--store", store, "--max-chars", "100001", "--json"]);
    expect(over.code).toBe(4);
    expect(over.json().error.code).toBe("INVALID_SELECTOR");
    const zero = await run(["fetch", ref, "--store", store, "--max-chars", "0"]);
    expect(zero.code).toBe(4);
    const nonNumeric = await run(["fetch", ref, "--store", store, "--max-chars", "lots"]);
    expect(nonNumeric.code).toBe(4);
    expect(nonNumeric.err).toMatch(/--max-chars must be a whole number/);
  });

  it("resolves within --session and refuses an expired reference", async () => {
    const store = tempStore();
    const file = tempFile("a.txt", "session scoped\n");
    const ref = (await run(["stash", file, "--store", store, "--session", "s1", "--ttl", "1ms"])).out.trim();
    await new Promise((r) => setTimeout(r, 20));
    const expired = await run(["fetch", ref, "--store", store, "--session", "s1", "--json"]);
    expect(expired.code).toBe(3);
    expect(expired.json().error.code).toBe("EXPIRED");
    const other = await run(["fetch", ref, "--store", store, "--session", "s2"]);
    expect(other.code).toBe(3);
    expect(other.err).toMatch(/^aref: no artifact matches art:[0-9a-f]{12} in session s2/);
  });
});

describe("aref cat", () => {
  it("writes the exact bytes, binary included", async () => {
    const store = tempStore();
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) % 256));
    const stash = (await run(["stash", tempFile("blob.bin", bytes), "--store", store, "--json"])).json();
    const r = await run(["cat", stash.short_ref, "--store", store]);
    expect(r.code).toBe(0);
    expect(r.stdout.equals(bytes)).toBe(true);
    const byHandle = await run(["cat", stash.handle, "--store", store]);
    expect(byHandle.stdout.equals(bytes)).toBe(true);
    const byId = await run(["cat", stash.artifact_id, "--store", store]);
    expect(byId.stdout.equals(bytes)).toBe(true);
  });

  it("keeps text byte-exact: CRLF, no final newline, BOM, astral characters", async () => {
    const store = tempStore();
    const text = "\ufeffline one\r\nline two 🚀\r\n\tlast line without newline";
    const ref = (await run(["stash", "-", "--store", store], { stdin: text })).out.trim();
    const r = await run(["cat", ref, "--store", store]);
    expect(r.stdout.equals(Buffer.from(text, "utf8"))).toBe(true);
  });
});
