import { randomBytes } from "node:crypto";
import { ArefError, formatIssues, parseSessionId, type VerifyProblem } from "@artifact-refs/schema";
import { z } from "zod";
import { collect, mapLimit } from "./concurrency.js";
import { encodeJson } from "./core.js";
import type { Driver } from "./driver.js";
import {
  RECORD_KIND_RE,
  RECORD_PREFIX,
  RECORD_SESSION_PREFIX,
  TIME_DIGITS,
  isRecordId,
  msOfRecordId,
  pad13,
  parseRecordKey,
  recordKey,
  recordKindPrefix,
  recordSessionMarker,
  recordSessionPrefix,
  recordDigitsPrefix,
} from "./record-keys.js";

/** Records kept per session and kind (the oldest beyond it are pruned). */
export const DEFAULT_MAX_RECORDS = 100_000;
/** Records older than this are not listed and are pruned (30 days). */
export const DEFAULT_RECORD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A writer prunes a (session, kind) after this many of its own appends to it. */
export const DEFAULT_PRUNE_EVERY = 1_000;
/**
 * A time window with at most this many keys is listed whole; a larger one is split in ten. A page
 * lists at most max(2 × its limit, MIN_PAGE_WINDOW_KEYS) keys of one window whole (never more than
 * this): a first page of 100 then reads ~200 keys of a busy window instead of 1,000 (on the fs
 * driver every listed key costs a stat).
 */
export const DEFAULT_WINDOW_KEYS = 1_000;
/** The smallest window a page lists whole (see DEFAULT_WINDOW_KEYS). */
export const MIN_PAGE_WINDOW_KEYS = 100;
/** Largest page a listing returns. */
export const MAX_RECORD_PAGE = 1_000;
/** How far ahead of this clock another writer's clock may run before its newest records list late. */
export const RECORD_CLOCK_SKEW_MS = 120_000;

export interface SessionRecordsOptions {
  /** Records kept per session and kind (default 100,000); older ones are pruned by the writer and by gc. */
  maxRecords?: number;
  /** Age after which a record is no longer listed and is pruned (default 30 days). */
  maxAgeMs?: number;
  /** A writer prunes a (session, kind) after this many of its own appends to it (default 1,000). */
  pruneEvery?: number;
  /** Called for every record a listing skips (corrupt, hand-edited, foreign key). Default: none. */
  onWarning?: (warning: RecordWarning) => void;
  /** A time window with at most this many keys is listed whole; a larger one is split (default 1,000). */
  windowKeys?: number;
}

/** One stored record: an envelope around the caller's JSON body. */
export interface StoredRecord<T = unknown> {
  /** Time-sortable id: `<13-digit ms>-<6 hex sequence>-<8 hex random>`. */
  id: string;
  session: string;
  kind: string;
  /** When it was written (the writer's clock, ISO 8601). */
  at: string;
  body: T;
}

export interface RecordWarning {
  key: string;
  message: string;
}

export interface RecordPage<T> {
  /** The newest `limit` records before the cursor, oldest first. */
  records: StoredRecord<T>[];
  /** Cursor for the next (older) page; absent when there is none. */
  before?: string;
  /** Records in the page's range that were skipped, with why. */
  skipped: RecordWarning[];
}

/** Validates a record's body; a body that fails is skipped with a warning. */
export interface BodySchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: z.ZodError };
}

const EnvelopeSchema = z.object({
  record: z.literal(1),
  id: z.string(),
  session: z.string(),
  kind: z.string(),
  at: z.string().datetime({ offset: true }),
  body: z.unknown(),
});

const positiveInt = (name: string, value: number) => {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ArefError("CONFIG_INVALID", `${name} must be a positive integer, got ${String(value)}`);
  return value;
};

function parseKind(kind: string): string {
  if (typeof kind !== "string" || !RECORD_KIND_RE.test(kind)) {
    throw new ArefError("INVALID_INPUT", `invalid record kind ${JSON.stringify(kind)}`, {
      hint: "a kind is a lowercase word (a-z, 0-9, '-'), at most 32 chars, e.g. \"execution\"",
    });
  }
  return kind;
}

let sequence = 0;

/**
 * Append-only session records over any Driver: one object per record, written once with
 * put-if-absent (a killed writer leaves either nothing or the whole record), never rewritten,
 * listed newest page first by time window so that a session's first page costs O(the records of
 * a few recent windows), not O(the session). Bounded per (session, kind) by count and age.
 */
export class SessionRecords {
  readonly maxRecords: number;
  readonly maxAgeMs: number;
  readonly pruneEvery: number;
  readonly windowKeys: number;
  readonly #driver: Driver;
  readonly #now: () => Date;
  readonly #onWarning: ((warning: RecordWarning) => void) | undefined;
  /** Sessions whose marker this instance has written. */
  readonly #marked = new Set<string>();
  /** Appends this instance made per (session, kind) since its last prune. */
  readonly #appends = new Map<string, number>();

  constructor(driver: Driver, now: () => Date, options: SessionRecordsOptions = {}) {
    this.#driver = driver;
    this.#now = now;
    this.maxRecords = positiveInt("records.maxRecords", options.maxRecords ?? DEFAULT_MAX_RECORDS);
    this.maxAgeMs = positiveInt("records.maxAgeMs", options.maxAgeMs ?? DEFAULT_RECORD_MAX_AGE_MS);
    this.pruneEvery = positiveInt("records.pruneEvery", options.pruneEvery ?? DEFAULT_PRUNE_EVERY);
    this.windowKeys = positiveInt("records.windowKeys", options.windowKeys ?? DEFAULT_WINDOW_KEYS);
    this.#onWarning = options.onWarning;
  }

  /** Writes one record; returns it with its id. The body must be JSON-serializable. */
  async append<T>(session: string, kind: string, body: T): Promise<StoredRecord<T>> {
    const sessionId = parseSessionId(session);
    parseKind(kind);
    const at = this.#now();
    const id = `${pad13(at.getTime())}-${(sequence = (sequence + 1) % 0x1000000).toString(16).padStart(6, "0")}-${randomBytes(4).toString("hex")}`;
    const record: StoredRecord<T> = { id, session: sessionId, kind, at: at.toISOString(), body };
    let bytes: Uint8Array;
    try {
      bytes = encodeJson({ record: 1, ...record });
    } catch (cause) {
      throw new ArefError("INVALID_INPUT", `a ${kind} record must be JSON-serializable: ${(cause as Error).message}`, {
        cause,
      });
    }
    if (!this.#marked.has(sessionId)) {
      await this.#driver.putIfAbsent(recordSessionMarker(sessionId), encodeJson({ session: sessionId }));
      this.#marked.add(sessionId);
    }
    const { created } = await this.#driver.putIfAbsent(recordKey(sessionId, kind, id), bytes);
    if (!created)
      throw new ArefError("CONFLICT", `record ${id} already exists`, {
        hint: "retry the write: ids are unique per writer, this means two writers drew the same random suffix",
      });
    const counter = `${sessionId}/${kind}`;
    const count = (this.#appends.get(counter) ?? 0) + 1;
    this.#appends.set(counter, count);
    if (count >= this.pruneEvery) {
      this.#appends.delete(counter);
      await this.prune(sessionId, kind);
    }
    return record;
  }

  /**
   * The newest `limit` records of (session, kind) older than the cursor `before` (a record id),
   * oldest first. Records older than maxAgeMs are not listed; corrupt or hand-edited ones are
   * skipped and reported in `skipped` (and to onWarning), never thrown.
   */
  async page<T = unknown>(
    session: string,
    kind: string,
    options: { limit?: number; before?: string; body?: BodySchema<T> } = {},
  ): Promise<RecordPage<T>> {
    const sessionId = parseSessionId(session);
    parseKind(kind);
    const limit = options.limit ?? 100;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_RECORD_PAGE) {
      throw new ArefError(
        "INVALID_INPUT",
        `limit must be an integer from 1 to ${MAX_RECORD_PAGE}, got ${String(options.limit)}`,
      );
    }
    if (options.before !== undefined && !isRecordId(options.before)) {
      throw new ArefError("INVALID_INPUT", `invalid cursor ${JSON.stringify(options.before)}`, {
        hint: "pass the `before` value of the previous page",
      });
    }
    const now = this.#now().getTime();
    const oldest = now - this.maxAgeMs;
    const anchor = options.before === undefined ? now + RECORD_CLOCK_SKEW_MS : msOfRecordId(options.before);
    const t = pad13(anchor);
    const windowKeys = Math.min(this.windowKeys, Math.max(2 * limit, MIN_PAGE_WINDOW_KEYS));
    const skipped: RecordWarning[] = [];
    /** Keys before the cursor, newest first: each step below only adds keys older than all before it. */
    const candidates: { key: string; id: string }[] = [];
    const records: StoredRecord<T>[] = [];
    let consumed = 0;
    const accept = (key: string, found: { key: string; id: string }[], bad: string[]) => {
      const parsed = parseRecordKey(key);
      if (!parsed || parsed.session !== sessionId || parsed.kind !== kind) {
        bad.push(key);
        return;
      }
      if (parsed.ms < oldest || (options.before !== undefined && parsed.id >= options.before)) return;
      found.push({ key, id: parsed.id });
    };
    /** Candidates up to (not including) this index are behind the page's last record. */
    let used = 0;
    const readMore = async () => {
      while (records.length < limit && consumed < candidates.length) {
        const from = consumed;
        const batch = candidates.slice(from, from + Math.max(8, limit - records.length));
        consumed += batch.length;
        const got = await mapLimit(batch, 16, (c) =>
          this.#read<T>(c.key, sessionId, kind, c.id, options.body, skipped),
        );
        for (const [j, r] of got.entries()) {
          if (records.length >= limit) break;
          used = from + j + 1;
          if (r !== undefined) records.push(r);
        }
      }
    };
    let unvisited = false;
    /**
     * Visits the time window whose 13-digit times start with `digits`, newest first: a window of at
     * most `windowKeys` (this page's) keys is listed whole (one listing, stopped early once it is known to be
     * larger); a larger one is split into its ten sub-windows, newest first, skipping those newer
     * than the anchor or wholly past the age. Every key listed is older than all listed before it,
     * so `candidates` stays sorted newest first, and the walk stops as soon as the page is full.
     */
    const visit = async (digits: string): Promise<void> => {
      const found: { key: string; id: string }[] = [];
      const bad: string[] = [];
      let seen = 0;
      for await (const entry of this.#driver.list(recordDigitsPrefix(sessionId, kind, digits))) {
        if (++seen > windowKeys && digits.length < TIME_DIGITS) break;
        accept(entry.key, found, bad);
      }
      if (seen <= windowKeys || digits.length === TIME_DIGITS) {
        for (const key of bad) this.#skip(skipped, key, "not a well-formed record key");
        found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
        candidates.push(...found);
        await readMore();
        return;
      }
      const size = 10 ** (TIME_DIGITS - digits.length - 1);
      const onAnchorPath = t.startsWith(digits);
      for (let c = onAnchorPath ? Number(t[digits.length]) : 9; c >= 0; c--) {
        if (records.length >= limit) {
          unvisited = true; // older windows left: there may be more
          return;
        }
        if (Number(`${digits}${c}`.padEnd(TIME_DIGITS, "0")) + size <= oldest) return; // wholly past the age, and so are the older ones
        await visit(`${digits}${c}`);
      }
    };
    // Bottom up from the anchor's 1-second window: each step visits the older sibling windows one
    // digit wider, newest first, so a page of recent records never lists the session's older
    // windows, and a window larger than windowKeys is split (top down) rather than listed whole.
    const t10 = t.slice(0, 10);
    await visit(t10);
    let digits = 10;
    let reachedEnd = Number(t10.padEnd(TIME_DIGITS, "0")) <= oldest;
    while (records.length < limit && !reachedEnd) {
      digits--;
      const head = t.slice(0, digits);
      const size = 10 ** (TIME_DIGITS - digits - 1);
      let complete = true;
      for (let c = Number(t[digits]) - 1; c >= 0; c--) {
        if (Number(`${head}${c}`.padEnd(TIME_DIGITS, "0")) + size <= oldest) break; // wholly past the age, and so are the older ones
        if (records.length >= limit) {
          complete = false;
          break;
        }
        await visit(`${head}${c}`);
      }
      reachedEnd = complete && (digits === 0 || Number(head.padEnd(TIME_DIGITS, "0")) <= oldest);
    }
    // A full page may have older records after it: read but unused, or in windows not visited.
    const more = records.length === limit && (used < candidates.length || unvisited || !reachedEnd);
    records.reverse();
    return { records, skipped, ...(more ? { before: records[0]!.id } : {}) };
  }

  /** The newest record of (session, kind), or undefined. */
  async latest<T = unknown>(session: string, kind: string, body?: BodySchema<T>): Promise<StoredRecord<T> | undefined> {
    return (await this.page<T>(session, kind, { limit: 1, ...(body ? { body } : {}) })).records[0];
  }

  /** Sessions that have records (from their markers: O(sessions), not O(records)). */
  async sessions(): Promise<string[]> {
    const out: string[] = [];
    for await (const entry of this.#driver.list(RECORD_SESSION_PREFIX)) {
      const m = /^record-sessions\/([A-Za-z0-9._:-]+)\.json$/.exec(entry.key);
      if (m && m[1] !== "." && m[1] !== "..") out.push(m[1]!);
    }
    return out.sort();
  }

  /** Removes every record of a session and its marker; returns how many records (with `dryRun`, how many it would). */
  async removeSession(session: string, options: { dryRun?: boolean } = {}): Promise<number> {
    const sessionId = parseSessionId(session);
    const entries = await collect(this.#driver.list(recordSessionPrefix(sessionId)));
    if (options.dryRun) return entries.length;
    const removed = await mapLimit(entries, 16, (e) => this.#driver.delete(e.key));
    await this.#driver.delete(recordSessionMarker(sessionId));
    this.#marked.delete(sessionId);
    return removed.filter(Boolean).length;
  }

  /**
   * Applies the retention to one session (every kind, or one): drops records past maxAgeMs, then the
   * oldest past maxRecords. Returns how many it removed (with `dryRun`, how many it would, removing none).
   */
  async prune(session: string, kind?: string, options: { dryRun?: boolean } = {}): Promise<number> {
    const sessionId = parseSessionId(session);
    const prefix = kind === undefined ? recordSessionPrefix(sessionId) : recordKindPrefix(sessionId, parseKind(kind));
    const byKind = new Map<string, string[]>();
    for await (const entry of this.#driver.list(prefix)) {
      const parsed = parseRecordKey(entry.key);
      if (!parsed || parsed.session !== sessionId) continue; // verify reports it; never delete what we cannot read
      let keys = byKind.get(parsed.kind);
      if (!keys) byKind.set(parsed.kind, (keys = []));
      keys.push(entry.key);
    }
    const oldest = this.#now().getTime() - this.maxAgeMs;
    const doomed: string[] = [];
    for (const keys of byKind.values()) {
      keys.sort(); // same session and kind: key order is id order
      const kept = keys.filter((k) => parseRecordKey(k)!.ms >= oldest);
      doomed.push(
        ...keys.filter((k) => parseRecordKey(k)!.ms < oldest),
        ...kept.slice(0, Math.max(0, kept.length - this.maxRecords)),
      );
    }
    if (options.dryRun) return doomed.length;
    const removed = await mapLimit(doomed, 16, (k) => this.#driver.delete(k));
    return removed.filter(Boolean).length;
  }

  /**
   * Applies the retention to every session; with `ended`, removes those sessions' records whole.
   * With `dryRun`, counts what it would remove and removes nothing.
   */
  async collectGarbage(ended: Iterable<string> = [], options: { dryRun?: boolean } = {}): Promise<number> {
    let removed = 0;
    const endedSet = new Set(ended);
    for (const session of endedSet) removed += await this.removeSession(session, options);
    for (const session of await this.sessions())
      if (!endedSet.has(session)) removed += await this.prune(session, undefined, options);
    return removed;
  }

  /** Every record object that cannot be read back as a record of its key. */
  async verify(): Promise<VerifyProblem[]> {
    const problems: VerifyProblem[] = [];
    const entries = await collect(this.#driver.list(RECORD_PREFIX));
    await mapLimit(entries, 16, async (entry) => {
      const parsed = parseRecordKey(entry.key);
      if (!parsed) {
        problems.push({
          kind: "corrupt_record",
          key: entry.key,
          message: "not a well-formed record key; listings skip it: remove it by hand",
          repaired: false,
        });
        return;
      }
      const why = await this.#problem(entry.key, parsed.session, parsed.kind, parsed.id);
      if (why !== undefined)
        problems.push({
          kind: "corrupt_record",
          key: entry.key,
          message: `${why}; listings skip it: remove it by hand`,
          repaired: false,
        });
    });
    return problems;
  }

  #skip(skipped: RecordWarning[], key: string, message: string): void {
    const warning = { key, message };
    skipped.push(warning);
    this.#onWarning?.(warning);
  }

  async #read<T>(
    key: string,
    session: string,
    kind: string,
    id: string,
    body: BodySchema<T> | undefined,
    skipped: RecordWarning[],
  ): Promise<StoredRecord<T> | undefined> {
    const raw = await this.#driver.get(key);
    if (raw === undefined) return undefined; // pruned while we looked
    const envelope = envelopeOf(raw, session, kind, id);
    if (typeof envelope === "string") {
      this.#skip(skipped, key, envelope);
      return undefined;
    }
    if (body === undefined) return envelope as StoredRecord<T>;
    const checked = body.safeParse(envelope.body);
    if (!checked.success) {
      this.#skip(skipped, key, `its body is not a valid ${kind} record: ${formatIssues(checked.error)}`);
      return undefined;
    }
    return { ...envelope, body: checked.data };
  }

  async #problem(key: string, session: string, kind: string, id: string): Promise<string | undefined> {
    const raw = await this.#driver.get(key);
    if (raw === undefined) return undefined;
    const envelope = envelopeOf(raw, session, kind, id);
    return typeof envelope === "string" ? envelope : undefined;
  }
}

/** The record in `raw`, or why it is not one (nothing read back is trusted). */
function envelopeOf(raw: Uint8Array, session: string, kind: string, id: string): StoredRecord | string {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return "not valid JSON";
  }
  const parsed = EnvelopeSchema.safeParse(json);
  if (!parsed.success) return `not a record: ${formatIssues(parsed.error)}`;
  const e = parsed.data;
  if (e.id !== id || e.session !== session || e.kind !== kind) return "it names another record than its key";
  return { id: e.id, session: e.session, kind: e.kind, at: e.at, body: e.body };
}
