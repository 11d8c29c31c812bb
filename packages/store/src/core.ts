import {
  ArefError,
  ArtifactRecordSchema,
  MAX_SUMMARY_CHARS,
  SessionReferenceSchema,
  formatIssues,
  isArefError,
  parseWith,
  type ArtifactId,
  type ArtifactRecord,
  type ArtifactType,
  type SessionReference,
} from "@artifact-refs/schema";
import { decodeUtf8, defaultSummary, sniffMime } from "./content.js";
import type { Driver, DriverEntry } from "./driver.js";
import { blobKey, metaKey, refKey } from "./layout.js";
import {
  DEFAULT_GC_GRACE_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_REMOTE_GC_GRACE_FLOOR_MS,
  type ArtifactStoreOptions,
  type PutOptions,
} from "./options.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeJson = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);

/** Shared internals of ArtifactStore and its maintenance jobs (gc, verify, stats). Not exported by the package. */
export class StoreCore {
  readonly driver: Driver;
  readonly maxBytes: number;
  readonly gcGraceMs: number;
  /** The floor this instance records when it creates the store (the store's own layout.json decides). */
  readonly gcGraceFloorMs: number;
  readonly verifyOnDedupe: boolean;
  readonly now: () => Date;
  readonly #summarize: NonNullable<ArtifactStoreOptions["summarize"]>;

  constructor(options: ArtifactStoreOptions) {
    if (!options.driver) throw new ArefError("CONFIG_INVALID", "ArtifactStore needs a driver");
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new ArefError("CONFIG_INVALID", `maxBytes must be a positive integer, got ${String(options.maxBytes)}`);
    }
    const grace = options.gcGraceMs ?? DEFAULT_GC_GRACE_MS;
    if (!Number.isFinite(grace) || grace < 0)
      throw new ArefError("CONFIG_INVALID", `gcGraceMs must be >= 0, got ${String(grace)}`);
    this.driver = options.driver;
    this.maxBytes = maxBytes;
    this.gcGraceMs = grace;
    const floor = options.gcGraceFloorMs ?? (options.driver.remote === true ? DEFAULT_REMOTE_GC_GRACE_FLOOR_MS : 0);
    if (!Number.isSafeInteger(floor) || floor < 0)
      throw new ArefError(
        "CONFIG_INVALID",
        `gcGraceFloorMs must be a whole number of milliseconds >= 0, got ${String(options.gcGraceFloorMs)}`,
      );
    this.gcGraceFloorMs = floor;
    this.verifyOnDedupe = options.verifyOnDedupe ?? options.driver.remote !== true;
    this.now = options.now ?? (() => new Date());
    this.#summarize = options.summarize ?? ((input) => defaultSummary(input.text, input.bytes.byteLength));
  }

  /**
   * Builds the record of freshly stored bytes. For chunked content, `bytes`/`text` are its first
   * part (for the summary and the MIME sniff) and `chunked` gives the whole size and the manifest.
   */
  buildRecord(
    id: ArtifactId,
    bytes: Uint8Array,
    options: PutOptions,
    text = decodeUtf8(bytes),
    chunked?: { sizeBytes: number; manifest: ArtifactId; chunks: number; binary: boolean },
  ): ArtifactRecord {
    const type: ArtifactType = options.type ?? "tool_output";
    const mime = options.mime ?? sniffMime(text);
    let summary = options.summary;
    if (summary === undefined) {
      try {
        summary = this.#summarize({
          text,
          bytes,
          mime,
          type,
          ...(options.label === undefined ? {} : { label: options.label }),
        });
      } catch {
        summary = defaultSummary(text, bytes.byteLength);
      }
      if (typeof summary !== "string") summary = defaultSummary(text, bytes.byteLength); // a summarizer that returned garbage
    }
    return parseWith(
      ArtifactRecordSchema,
      {
        artifact_id: id,
        type,
        content_uri: this.driver.uri(blobKey(chunked?.manifest ?? id)),
        content_hash: `sha256:${id}`,
        size_bytes: chunked?.sizeBytes ?? bytes.byteLength,
        created_at: this.now().toISOString(),
        ...(options.producer === undefined ? {} : { producer: options.producer }),
        summary: summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary,
        mime,
        ...(options.label === undefined ? {} : { label: options.label }),
        ...(options.tool === undefined ? {} : { tool: options.tool }),
        encoding: text === undefined || chunked?.binary === true ? "binary" : "utf-8",
        ...(options.redactions && options.redactions.length > 0 ? { redactions: options.redactions } : {}),
        ...(chunked === undefined ? {} : { chunked: { manifest: chunked.manifest, chunks: chunked.chunks } }),
      },
      "artifact record",
    );
  }

  /** Reads and validates a record; undefined when absent; CORRUPT_METADATA when unreadable. */
  async readRecord(id: ArtifactId): Promise<ArtifactRecord | undefined> {
    const raw = await this.driver.get(metaKey(id));
    if (raw === undefined) return undefined;
    return parseStored(raw, ArtifactRecordSchema, `metadata of ${id}`, (r) => r.artifact_id === id);
  }

  async readReference(session: string, id: ArtifactId): Promise<SessionReference | undefined> {
    const raw = await this.driver.get(refKey(session, id));
    return raw === undefined ? undefined : parseReference(raw, session, id);
  }

  /**
   * `readReference` with the version read (`Driver.getVersioned`, same one request), where the driver
   * can write over that version only (`putVersioned`); else the version is undefined.
   */
  async readReferenceVersioned(
    session: string,
    id: ArtifactId,
  ): Promise<{ reference: SessionReference; version: string | undefined } | undefined> {
    const { driver } = this;
    if (driver.getVersioned === undefined || driver.putVersioned === undefined) {
      const reference = await this.readReference(session, id);
      return reference === undefined ? undefined : { reference, version: undefined };
    }
    const read = await driver.getVersioned(refKey(session, id));
    return read === undefined
      ? undefined
      : { reference: parseReference(read.data, session, id), version: read.version };
  }

  isExpired(reference: SessionReference, at?: Date): boolean {
    return reference.expires_at !== undefined && Date.parse(reference.expires_at) <= (at ?? this.now()).getTime();
  }
}

/**
 * The version a listing gave an entry, where the driver lists versions (the S3 driver: each object's ETag, the
 * form `getVersioned` reads); undefined otherwise. A reference listed with the version this instance read or
 * wrote is the reference it holds, byte for byte: it is not read again.
 */
export const listedVersion = (entry: DriverEntry): string | undefined =>
  entry.version !== undefined && entry.version !== "" ? entry.version : undefined;

const parseReference = (raw: Uint8Array, session: string, id: ArtifactId): SessionReference =>
  parseStored(
    raw,
    SessionReferenceSchema,
    `reference ${session}/${id}`,
    (r) => r.artifact_id === id && r.session_id === session,
  );

/** Parses JSON read back from a backend: nothing read back is trusted. */
export function parseStored<T>(
  raw: Uint8Array,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import("zod").ZodError } },
  what: string,
  consistent: (value: T) => boolean,
): T {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(raw));
  } catch (cause) {
    throw corrupt(what, "not valid JSON", cause);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw corrupt(what, formatIssues(parsed.error));
  if (!consistent(parsed.data)) throw corrupt(what, "it names another artifact than its key");
  return parsed.data;
}

function corrupt(what: string, why: string, cause?: unknown): ArefError {
  return new ArefError("CORRUPT_METADATA", `${what} is corrupt: ${why}`, {
    hint: "run `aref verify --repair` to rebuild it from the stored content",
    ...(cause === undefined ? {} : { cause }),
  });
}

export function rethrowUnlessCorrupt(error: unknown): void {
  if (!(isArefError(error) && error.code === "CORRUPT_METADATA")) throw error;
}
