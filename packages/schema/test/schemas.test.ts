import { SEED_000_PROMPT_METRICS } from "@artifact-refs/tooling/testing/seed-000";
import { describe, expect, it } from "vitest";
import {
  ArefError,
  ArtifactRecordSchema,
  ExecutionRecordSchema,
  HotStateSchema,
  PromptMetricsSchema,
  SelectorSchema,
  StashReceiptSchema,
  TranscriptEntrySchema,
  parseWith,
} from "@artifact-refs/schema";

const ID = "0123456789abcdef".repeat(4);

describe("schemas", () => {
  it("validates an ArtifactRecord and rejects an over-long summary", () => {
    const record = {
      artifact_id: ID,
      type: "log",
      content_uri: `file:///tmp/blobs/sha256/01/23/${ID}`,
      content_hash: `sha256:${ID}`,
      size_bytes: 12,
      created_at: "2026-11-22T10:00:00.000Z",
      summary: "ok",
    };
    expect(ArtifactRecordSchema.parse(record).encoding).toBe("utf-8");
    expect(ArtifactRecordSchema.safeParse({ ...record, summary: "x".repeat(501) }).success).toBe(false);
    expect(ArtifactRecordSchema.safeParse({ ...record, type: "video" }).success).toBe(false);
  });

  it("keeps the hot state strict (JSON fields only) and accepts short refs in the index", () => {
    const hs = { session_id: "s", artifact_index: [{ artifact_id: `art:${ID.slice(0, 12)}`, type: "code" }] };
    expect(HotStateSchema.parse(hs)).toEqual(hs);
    expect(HotStateSchema.safeParse({ ...hs, prose: "free text" }).success).toBe(false);
    expect(
      HotStateSchema.safeParse({ session_id: "s", artifact_index: [{ artifact_id: "nope", type: "code" }] }).success,
    ).toBe(false);
  });

  it("parses each selector mode and rejects unknown fields and bad ranges", () => {
    expect(SelectorSchema.parse({ mode: "headtail" })).toEqual({ mode: "headtail" });
    expect(SelectorSchema.parse({ mode: "grep", pattern: "err", context: 2 })).toMatchObject({ mode: "grep" });
    expect(SelectorSchema.parse({ mode: "range", start: 5, end: 9 })).toMatchObject({ start: 5 });
    expect(SelectorSchema.parse({ mode: "jsonpath", expr: "$.a" })).toMatchObject({ expr: "$.a" });
    expect(SelectorSchema.safeParse({ mode: "range", start: 9, end: 5 }).success).toBe(false);
    expect(SelectorSchema.safeParse({ mode: "headtail", maxChars: 0 }).success).toBe(false);
    expect(SelectorSchema.safeParse({ mode: "grep", pattern: "x", bogus: 1 }).success).toBe(false);
    expect(SelectorSchema.safeParse({ mode: "sql" }).success).toBe(false);
  });

  it("parseWith names the zod path of the problem", () => {
    let caught: unknown;
    try {
      parseWith(HotStateSchema, { session_id: "s", risk_level: "extreme" }, "hot state");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ArefError);
    expect((caught as ArefError).code).toBe("INVALID_INPUT");
    expect((caught as ArefError).message).toMatch(/invalid hot state: risk_level:/);
  });

  it("validates receipts, metrics, transcript entries and execution records", () => {
    expect(
      StashReceiptSchema.safeParse({
        schema: "artifact-refs.stash.v1",
        handle: `aref:v1:sha256:${ID}`,
        artifact_id: ID,
        short_ref: `art:${ID.slice(0, 12)}`,
        bytes: 3,
        created_at: "2026-11-22T10:00:00.000Z",
        deduped: false,
        type: "tool_output",
      }).success,
    ).toBe(true);
    const metrics = SEED_000_PROMPT_METRICS;
    expect(PromptMetricsSchema.parse(metrics)).toMatchObject(metrics);
    expect(PromptMetricsSchema.safeParse({ ...metrics, hs_tokens: -1 }).success).toBe(false);
    const entry = TranscriptEntrySchema.parse({
      role: "tool",
      content: "",
      tool_name: "bash",
      details: {
        artifactRef: {
          artifact_id: ID,
          handle: `aref:v1:sha256:${ID}`,
          short_ref: `art:${ID.slice(0, 12)}`,
          size_bytes: 9,
        },
      },
    });
    expect(entry.details?.artifactRef?.payload).toBe("text");
    const exec = ExecutionRecordSchema.parse({
      execution_id: "e1",
      session_id: "s",
      timestamp: "2026-11-22T10:00:00Z",
      tool_name: "read_file",
      result_type: "success",
      result_summary: "Loaded README.md",
      result_size: 10,
    });
    expect(exec.context_ttl).toBe(5);
    expect(exec.tool_args).toEqual({});
  });
});
