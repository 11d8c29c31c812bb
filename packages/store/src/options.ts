import type { ArtifactType, ToolInfo } from "@artifact-refs/schema";
import type { Driver } from "./driver.js";

export const DEFAULT_MAX_BYTES = 512 * 1024;
export const DEFAULT_GC_GRACE_MS = 10 * 60 * 1000;

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
  /** Size cap per artifact in bytes (default 512 KiB). Over it, put fails with TOO_LARGE. */
  maxBytes?: number;
  /** Builds the record's summary (≤ 500 chars). Default: the first 200 chars, whitespace folded. */
  summarize?: (input: SummarizeInput) => string;
  /** Clock for created_at and TTLs (tests inject one). GC grace uses the backend's own times. */
  now?: () => Date;
  /** GC never sweeps a blob modified less than this long before its mark began (default 10 min). */
  gcGraceMs?: number;
  /**
   * When a put finds the blob already stored, read it back and check its hash; a corrupt
   * blob is replaced by the good bytes (re-putting heals). Default true.
   */
  verifyOnDedupe?: boolean;
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
