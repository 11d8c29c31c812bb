import {
  ArtifactTypeSchema,
  ProducerSchema,
  ToolInfoSchema,
  type ArtifactType,
  type ToolInfo,
} from "@artifact-refs/schema";
import { z } from "zod";
import type { Driver } from "./driver.js";
import type { SessionRecordsOptions } from "./session-records.js";

/** Default cap on one artifact's size (1 GiB). Content over 512 KiB is stored in chunks. */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_GC_GRACE_MS = 10 * 60 * 1000;
/**
 * The gc grace floor a store created over a `remote` driver (S3) records by default: a put into a
 * session that finishes within it skips its refresh after the reference write (one request, one round
 * trip). Local drivers default to 0 (a refresh costs them a syscall). Opt out with `gcGraceFloorMs: 0`.
 */
export const DEFAULT_REMOTE_GC_GRACE_FLOOR_MS = 60 * 1000;

export interface SummarizeInput {
  /** The content as text, or undefined for binary content. */
  text: string | undefined;
  bytes: Uint8Array;
  mime: string;
  type: ArtifactType;
  label?: string;
}

export interface ArtifactStoreOptions {
  driver: Driver;
  /**
   * Size cap per artifact in bytes (maxArtifactBytes; default 1 GiB). Over it, put fails with
   * TOO_LARGE and nothing is left live. Content over 512 KiB is stored in chunks.
   */
  maxBytes?: number;
  /** Builds the record's summary (≤ 500 chars). Default: the first 200 chars, whitespace folded. */
  summarize?: (input: SummarizeInput) => string;
  /** Clock for created_at and TTLs (tests inject one). GC grace uses the backend's own times. */
  now?: () => Date;
  /** GC never sweeps a blob modified less than this long before its mark began (default 10 min). */
  gcGraceMs?: number;
  /**
   * The store-wide minimum gc grace, recorded in the store's `layout.json` when this instance
   * creates the store (default 0, or DEFAULT_REMOTE_GC_GRACE_FLOOR_MS = 60 s over a `remote` driver such as
   * S3; a store that exists keeps the floor it records, a store with a layout.json without one has 0). Every gc on the
   * store refuses a grace below it, so a put that finished its reference within the floor needs no
   * refresh after the reference write (one request and one round trip less per stash into a session).
   * With a floor of 0 the refresh stays: a gc with grace 0 on another instance stays safe.
   */
  gcGraceFloorMs?: number;
  /**
   * When a put finds the blob already stored, read it back and check its hash; a corrupt
   * blob is replaced by the good bytes and the put reports `healed`. Off, a put writes the blob
   * whether or not it exists (the write replaces a corrupt copy silently: re-putting still heals)
   * and reports its own record without reading the stored one. Default: on, off for a driver
   * marked `remote` (S3: 2 requests for a put of existing content without a session, was 5).
   */
  verifyOnDedupe?: boolean;
  /** Retention and warnings of session records (`store.records`). */
  records?: SessionRecordsOptions;
}

export interface PutOptions {
  type?: ArtifactType;
  label?: string;
  mime?: string;
  producer?: "dispatcher" | "executor" | "planner" | "system" | "user";
  tool?: ToolInfo;
  /** Summary to record instead of the computed one (cut to 500 chars). */
  summary?: string;
  /** Kinds of secrets that were redacted from the content before the put. */
  redactions?: string[];
  /** Adds a reference from this session (blobs without any reference are garbage for gc). */
  session?: string;
  /** Time-to-live of the session reference, in milliseconds. */
  ttlMs?: number;
}

export interface SessionOption {
  /** Resolve short refs within this session, and require the session to hold a live reference. */
  session?: string;
}

export interface ReferenceReadOptions {
  /**
   * Accept a reference this store instance read at most this many milliseconds ago (default 0:
   * read it every time). Changes this instance makes are seen at once; changes made by other
   * processes sharing the backend within this bound. Expiry is always checked against the clock.
   */
  maxAgeMs?: number;
}

export interface GcOptions {
  dryRun?: boolean;
  graceMs?: number;
  onProgress?: (done: number, total: number) => void;
  /** Called after the mark phase, before the sweep (lets tests write concurrently). */
  onMarked?: () => Promise<void> | void;
}

export interface VerifyOptions {
  /** Rebuild missing or corrupt metadata, drop corrupt references, remove temp files. */
  repair?: boolean;
  onProgress?: (done: number, total: number) => void;
}

const callback = z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", "must be a function");
const positiveMs = z.number().finite("must be finite").positive("must be > 0");

/** What `put` accepts besides the content; `put` and `addReference` validate their options with it. */
export const PutOptionsSchema = z.object({
  type: ArtifactTypeSchema.optional(),
  label: z.string().optional(),
  mime: z.string().optional(),
  producer: ProducerSchema.optional(),
  tool: ToolInfoSchema.optional(),
  summary: z.string().optional(),
  redactions: z.array(z.string()).optional(),
  session: z.string().optional(),
  ttlMs: positiveMs.optional(),
});

export const GcOptionsSchema = z.object({
  dryRun: z.boolean().optional(),
  graceMs: z
    .number()
    .finite("must be finite")
    .min(0, "must be >= 0 (a negative grace could sweep a blob being written)")
    .optional(),
  onProgress: callback.optional(),
  onMarked: callback.optional(),
});

export const VerifyOptionsSchema = z.object({
  repair: z.boolean().optional(),
  onProgress: callback.optional(),
});
