// The semantic option: similarities computed by the caller (a sentence-embedding model in
// @artifact-refs/resolve-semantic; given here as numbers) answer only what lexical signals leave without a
// candidate, never a general question, never re-rank. Sessions written for this test only.
import { ArefError } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import {
  type ExecutionLike,
  SEMANTIC_MARGIN,
  SEMANTIC_MIN,
  SEMANTIC_WINDOW,
  executionText,
  resolveReferences,
} from "../src/internal.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh media/uploads" },
    label: "du -sh media/uploads",
    summary: "4.1G media/uploads",
    result_type: "success",
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "src/billing/invoice.ts" },
    summary: "createInvoice(), applyVat(), 140 lines",
    result_type: "success",
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "pytest tests/test_sync.py" },
    summary: "2 failed, 31 passed: test_conflict_merge, test_offline_queue",
    result_type: "error",
  },
];
// Words none of the records hold: lexical signals find nothing, and it is not a general question.
const PARAPHRASE = "which one told us how heavy the pictures had grown?";
const sims = (values: Record<string, number>) => new Map(Object.entries(values));

describe("semantic similarities as a signal", () => {
  it("the message shares no word with the records: lexical resolution finds nothing", () => {
    expect(resolveReferences(PARAPHRASE, session).candidates).toEqual([]);
  });

  it("a clear semantic winner answers it, with its similarity and the runner-up's as the reason", () => {
    const r = resolveReferences(PARAPHRASE, session, { semantic: sims({ k1: 0.61, k2: 0.22, k3: 0.3 }) });
    expect(r.candidates.map((c) => c.id)).toEqual(["k1"]);
    expect(r.candidates[0]!.reasons).toEqual(["semantic: 0.61 vs 0.30"]);
    expect(r.ambiguous).toBe(false);
  });

  it("no answer without the margin over the runner-up or below the least similarity", () => {
    const close = SEMANTIC_MIN + 0.2;
    expect(
      resolveReferences(PARAPHRASE, session, {
        semantic: sims({ k1: close, k3: close - SEMANTIC_MARGIN / 2 }),
      }).candidates,
    ).toEqual([]);
    expect(
      resolveReferences(PARAPHRASE, session, { semantic: sims({ k1: SEMANTIC_MIN - 0.01, k2: 0 }) }).candidates,
    ).toEqual([]);
  });

  it("a general question stays unanswered however similar a record is", () => {
    for (const text of [
      "in general, how do people shrink a folder full of photos?",
      "what's the difference between du and df?",
      "write a short poem about invoices",
    ]) {
      expect(resolveReferences(text, session, { semantic: sims({ k1: 0.95, k2: 0.1, k3: 0.1 }) }).candidates).toEqual(
        [],
      );
    }
  });

  it("never re-ranks or changes a lexical answer", () => {
    for (const text of ["the failing tests", "the invoice file", "the last command", "how big was the uploads dir"]) {
      const plain = resolveReferences(text, session);
      expect(plain.candidates.length).toBeGreaterThan(0);
      expect(resolveReferences(text, session, { semantic: sims({ k1: 0.1, k2: 0.9, k3: 0.05 }) })).toEqual(plain);
    }
  });

  it("names only executions of the session's recent window", () => {
    const long: ExecutionLike[] = Array.from({ length: SEMANTIC_WINDOW + 5 }, (_, i) => ({
      id: `r${i}`,
      tool_name: "list_files",
      tool_args: { path: `dir${i}` },
      summary: `${i} entries`,
    }));
    // The clear winner is too old; an id that is not in the session is never named.
    const semantic = sims({ r0: 0.9, ghost: 0.99, [`r${SEMANTIC_WINDOW + 4}`]: 0.3 });
    expect(resolveReferences(PARAPHRASE, long, { semantic }).candidates).toEqual([]);
  });

  it("an empty message is still INVALID_INPUT, and so is a semantic option that is not a Map", () => {
    expect(() => resolveReferences("   ", session, { semantic: sims({ k1: 0.9 }) })).toThrow(ArefError);
    const bad = { k1: 0.9 } as unknown as Map<string, number>;
    expect(() => resolveReferences(PARAPHRASE, session, { semantic: bad })).toThrow(ArefError);
  });

  it("the execution text is label, tool, arguments and summary", () => {
    expect(executionText(session[1]!)).toBe(
      'read_file | {"path":"src/billing/invoice.ts"} | createInvoice(), applyVat(), 140 lines',
    );
  });
});
