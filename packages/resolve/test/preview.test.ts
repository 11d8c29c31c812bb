import { hasErrorCode } from "@artifact-refs/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_CHARS } from "@artifact-refs/schema";
import { preview, summarize, testCounts } from "../src/internal.js";

describe("preview by content type", () => {
  it("JSON: shape, keys, array lengths and a sample", () => {
    const body = JSON.stringify({
      data: Array.from({ length: 20 }, (_, i) => ({ id: `ch_${i}`, amount: i * 100, status: i % 7 ? "ok" : "failed" })),
      has_more: true,
      object: "list",
    });
    const p = preview(body, { mime: "application/json" });
    expect(p.kind).toBe("json");
    expect(p.summary).toBe("JSON object, 3 keys: data (array[20]), has_more (boolean), object (string)");
    expect(p.preview).toContain("data: array[20]");
    expect(p.preview).toContain("[0]: object{3}");
    expect(p.preview).toContain('"id":"ch_0"');
    expect(p.stats).toMatchObject({ keys: 3 });
  });

  it("JSON Lines", () => {
    const p = preview('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n{"a":3,"b":"z"}\n', { label: "events.jsonl" });
    expect(p.kind).toBe("json");
    expect(p.summary).toMatch(/^JSON Lines, 3 records/);
  });

  it("logs: error and warning counts, the most frequent error, the tail", () => {
    const lines = [];
    for (let i = 0; i < 200; i++) {
      const t = `2024-05-01T02:${String(10 + (i % 50)).padStart(2, "0")}:07Z`;
      if (i % 10 === 3)
        lines.push(
          `${t} [error] 1234#0: *${i} upstream timed out (110: Connection timed out) while reading response header`,
        );
      else if (i % 25 === 0) lines.push(`${t} [warn] client body buffered to a temporary file`);
      else lines.push(`${t} [info] GET /api/items/${i} 200`);
    }
    const p = preview(lines.join("\n"), { label: "/var/log/nginx/error.log" });
    expect(p.kind).toBe("log");
    expect(p.stats).toMatchObject({ lines: 200, errors: 20, warnings: 8 });
    expect(p.summary).toMatch(/^Log, 200 lines: 20 errors, 8 warnings; most frequent \(20x\): .*upstream timed out/);
    expect(p.preview).toContain("tail:");
    expect(p.preview).toContain("200: ");
  });

  it("test output: counts and failing test names (vitest, pytest, go)", () => {
    const vitest = [
      " ✓ src/orders.repo.test.ts (12 tests) 40ms",
      " ❯ src/orders.route.test.ts (35 tests | 1 failed) 210ms",
      "   × returns 404 for unknown id 12ms",
      " FAIL  src/orders.route.test.ts > orders route > returns 404 for unknown id",
      "AssertionError: expected 500 to be 404",
      "",
      " Test Files  1 failed | 1 passed (2)",
      "      Tests  1 failed | 46 passed (47)",
    ].join("\n");
    const v = preview(vitest);
    expect(v.kind).toBe("test");
    expect(v.stats).toMatchObject({ failed: 1, passed: 46 });
    expect(v.summary).toContain("returns 404 for unknown id");

    const pytest = [
      "============================= test session starts ==============================",
      "collected 214 items",
      "tests/test_dates.py ..F.F",
      "=================================== FAILURES ===================================",
      "______________________________ test_parse_date_tz ______________________________",
      "E       AssertionError: assert datetime(2024, 3, 1, 0, 0) == datetime(2024, 3, 1, 0, 0, tzinfo=utc)",
      "=========================== short test summary info ============================",
      "FAILED tests/test_dates.py::test_parse_date_tz - AssertionError",
      "FAILED tests/test_dates.py::test_parse_date_naive - AssertionError",
      "========================= 2 failed, 212 passed in 3.21s =========================",
    ].join("\n");
    const py = preview(pytest);
    expect(py.kind).toBe("test");
    expect(py.summary).toMatch(/^Test run: 2 failed, 212 passed; failing: .*tests\/test_dates.py::test_parse_date_tz/);

    const go =
      "=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 1 want 2\n=== RUN   TestOK\n--- PASS: TestOK (0.00s)\nFAIL\nFAIL\texample.com/p\t0.01s\n";
    const g = preview(go);
    expect(g.kind).toBe("test");
    expect(g.stats).toMatchObject({ failed: 1, passed: 1 });
    expect(g.summary).toContain("TestParse");
  });

  it("plain logs with ok/failed words are logs, not test runs (step numbers are not counts)", () => {
    const lines = (f: (i: number) => string) => Array.from({ length: 3_000 }, (_, i) => f(i + 1)).join("\n");
    const logs = [
      lines((i) => `INFO step ${i} ok`),
      lines((i) => `line ${i}: INFO step ok`),
      lines((i) => `ok ${i} INFO step`),
      lines((i) => (i % 100 === 0 ? `ERROR step ${i} failed` : `INFO step ${i} ok`)),
      lines((i) => `2024-05-01 10:00:${String(i % 60).padStart(2, "0")} worker ${i} ok`),
    ];
    for (const log of logs) {
      const p = preview(log);
      expect(p.kind, log.slice(0, 40)).toBe("log");
      expect(p.summary).not.toMatch(/Test run/);
      expect(testCounts(log)).toEqual({});
    }
    for (const text of [
      lines((i) => `step ${i} failed`),
      lines((i) => `ok ${i} records loaded`),
      lines((i) => `[ok] step ${i}`),
      lines((i) => `processed batch ${i} ok`),
    ]) {
      expect(preview(text).kind, text.slice(0, 40)).not.toBe("test");
      expect(testCounts(text)).toEqual({});
    }
    expect(testCounts("INFO step 3000 failed\nINFO job 12 passed to worker 3")).toEqual({});
  });

  it("real TAP and count summaries are still test runs", () => {
    const tap = "TAP version 13\n1..3\nok 1 - adds\nnot ok 2 - subtracts\nok 3 - multiplies\n";
    expect(preview(tap).kind).toBe("test");
    expect(preview(tap).summary).toBe("Test run: 1 failed, 2 passed; failing: subtracts");
    expect(preview("ok 1 - adds\nnot ok 2 - subtracts\n").stats).toMatchObject({ failed: 1, passed: 1 });
    const nodeTest =
      "TAP version 13\n# Subtest: a\nok 1 - a\n# Subtest: b\nnot ok 2 - b\n1..2\n# tests 2\n# pass 1\n# fail 1\n";
    expect(preview(nodeTest).stats).toMatchObject({ failed: 1, passed: 1 });
    expect(testCounts("  46 passing (2s)\n  1 failing\n")).toEqual({ passed: 46, failed: 1 });
    expect(testCounts("==== 2 failed, 212 passed in 3.21s ====")).toEqual({ passed: 212, failed: 2 });
    expect(testCounts("Tests:       1 failed, 46 passed, 47 total")).toEqual({ passed: 46, failed: 1 });
    expect(preview("collected 3 items\n\ntests/test_a.py ...\n\n3 passed in 0.02s\n").kind).toBe("test");
  });

  it("source code: an outline of symbols", () => {
    const ts = [
      'import { Pool } from "pg";',
      "export interface Order { id: string }",
      "export class OrderRepository {",
      "  constructor(private pool: Pool) {}",
      "  async findById(id: string): Promise<Order> {",
      "    return (await this.pool.query('x')).rows[0];",
      "  }",
      "}",
      "export const toDto = (o: Order) => ({ ...o });",
      "function helper() {}",
    ].join("\n");
    const p = preview(ts, { label: "src/db/orderRepo.ts" });
    expect(p.kind).toBe("code");
    expect(p.summary).toMatch(
      /^TypeScript source, 10 lines, \d+ symbols: interface Order, class OrderRepository, function toDto, function helper/,
    );
    expect(p.preview).toContain("method findById");
    const py = preview(
      "import os\n\nclass Invoice:\n    def total(self):\n        return 1\n\ndef parse_date(s):\n    pass\n",
      { label: "billing/dates.py" },
    );
    expect(py.summary).toMatch(/^Python source, 8 lines, 3 symbols: class Invoice, def parse_date/);
  });

  it("HTML: title and visible text, no scripts", () => {
    const html =
      '<!doctype html><html><head><title>Charges &amp; refunds</title><style>p{color:red}</style></head><body><h1>Charges</h1><script>var secret=1</script><p>Create a charge with an <a href="/k">Idempotency-Key</a>.</p></body></html>';
    const p = preview(html);
    expect(p.kind).toBe("html");
    expect(p.summary).toContain('"Charges & refunds"');
    expect(p.preview).toContain("# Charges");
    expect(p.preview).toContain("Create a charge with an Idempotency-Key .");
    expect(p.preview).not.toContain("secret");
  });

  it("CSV: header and row count", () => {
    const csv = `customer_id,name,"email, primary",region\n${Array.from({ length: 120 }, (_, i) => `c${i},Name ${i},"n${i}@x.io",EMEA`).join("\n")}\n`;
    const p = preview(csv, { label: "customers.csv" });
    expect(p.kind).toBe("csv");
    expect(p.summary).toBe("CSV, 120 rows x 4 columns: customer_id, name, email, primary, region");
    expect(p.stats).toMatchObject({ rows: 120, columns: 4 });
    expect(preview(csv).kind).toBe("csv");
  });

  it("plain text: head and tail", () => {
    const text = Array.from({ length: 500 }, (_, i) => `Paragraph ${i} of the report.`).join("\n");
    const p = preview(text, { maxChars: 400 });
    expect(p.kind).toBe("text");
    expect(p.preview.length).toBeLessThanOrEqual(400);
    expect(p.preview).toContain("Paragraph 0 of");
    expect(p.preview).toContain("Paragraph 499 of");
    expect(p.preview).toMatch(/lines omitted/);
  });

  it("binary and empty content", () => {
    const p = preview(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), {
      mime: "image/png",
    });
    expect(p.kind).toBe("binary");
    expect(p.summary).toBe("Binary content, 12 bytes (image/png)");
    expect(preview("  \n").kind).toBe("empty");
  });

  it("summaries stay within 500 chars and previews within maxChars for any input", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 5_000 }),
        fc.constantFrom(undefined, "a.json", "a.csv", "a.ts", "a.log", "a.html"),
        fc.integer({ min: 1, max: 3_000 }),
        (text, label, maxChars) => {
          const p = preview(text, { label, maxChars });
          expect(p.summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
          expect(p.preview.length).toBeLessThanOrEqual(maxChars);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("summarize fits ArtifactStore's summarize option", () => {
    const bytes = new TextEncoder().encode('{"a":[1,2,3]}');
    expect(summarize({ text: '{"a":[1,2,3]}', bytes, mime: "application/json" })).toBe(
      "JSON object, 1 key: a (array[3])",
    );
    expect(summarize({ text: undefined, bytes: new Uint8Array([0, 1, 2]), mime: "application/octet-stream" })).toMatch(
      /^Binary content, 3 bytes/,
    );
  });

  it("refuses content that is neither text nor bytes, and bad options, with INVALID_INPUT (no TypeError)", () => {
    for (const content of [null, undefined, 42, { text: "x" }, ["a"]]) {
      expect(() => preview(content as never), String(content)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT", message: expect.stringMatching(/string or bytes/) }),
      );
    }
    for (const options of [{ kind: "bogus" }, { mime: 42 }, { maxChars: 1.5 }, { label: {} }]) {
      expect(() => preview("x", options as never), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT" }),
      );
    }
  });

  it("JSON nested too deep to walk falls back to a text preview, and says so in the kind", () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const p = preview(deep);
    expect(p.summary).toMatch(/^Text, 1 lines/);
    expect(p.kind).toBe("text");
  });

  it("rejects a bad maxChars", () => {
    try {
      preview("x", { maxChars: 0 });
      throw new Error("no error");
    } catch (e) {
      expect(hasErrorCode(e, "INVALID_INPUT")).toBe(true);
    }
  });
});
