/**
 * Key layout of session records (execution records, chat turns, prompt metrics), the same over
 * every driver:
 *
 *   records/<session>/<kind>/<t0-5>/<t6-7>/<t8>/<id>.json    one record, written once, never rewritten
 *   record-sessions/<session>.json                           marks a session that has records
 *
 * `<id>` is time-sortable: `<13-digit ms>-<6 hex sequence>-<8 hex random>`, and `<t0-5>/<t6-7>/<t8>`
 * are digits of its time (directories of ~2.8 h, 100 s and 10 s: few enough entries per directory
 * for a burst of records, few enough directories for records seconds apart). A listing of one time
 * window is one prefix (`…/<kind>/176400/12/3/1764001234`), which every backend answers without
 * reading the rest of the session: S3 by prefix, memory by a sorted range, the fs driver by walking
 * one directory.
 */
export const RECORD_PREFIX = "records/";
export const RECORD_SESSION_PREFIX = "record-sessions/";

/** Record kinds: lowercase words joined by '-', ≤ 32 chars. */
export const RECORD_KIND_RE = /^[a-z][a-z0-9-]{0,31}$/;
const ID_RE = /^(\d{13})-([0-9a-f]{6})-([0-9a-f]{8})$/;
const KEY_RE =
  /^records\/([A-Za-z0-9._:-]+)\/([a-z][a-z0-9-]{0,31})\/(\d{6})\/(\d{2})\/(\d)\/(\d{13}-[0-9a-f]{6}-[0-9a-f]{8})\.json$/;

export const TIME_DIGITS = 13;

export const pad13 = (ms: number) =>
  String(Math.max(0, Math.min(9_999_999_999_999, Math.floor(ms)))).padStart(TIME_DIGITS, "0");

export function recordKey(session: string, kind: string, id: string): string {
  return `${RECORD_PREFIX}${session}/${kind}/${id.slice(0, 6)}/${id.slice(6, 8)}/${id.slice(8, 9)}/${id}.json`;
}

export const recordSessionPrefix = (session: string) => `${RECORD_PREFIX}${session}/`;
export const recordKindPrefix = (session: string, kind: string) => `${RECORD_PREFIX}${session}/${kind}/`;
export const recordSessionMarker = (session: string) => `${RECORD_SESSION_PREFIX}${session}.json`;

/** The listing prefix of the records of (session, kind) whose 13-digit time starts with `t`. */
export function recordDigitsPrefix(session: string, kind: string, t: string): string {
  const base = recordKindPrefix(session, kind);
  if (t.length < 6) return `${base}${t}`;
  if (t.length < 8) return `${base}${t.slice(0, 6)}/${t.slice(6)}`;
  if (t.length < 9) return `${base}${t.slice(0, 6)}/${t.slice(6, 8)}/`;
  return `${base}${t.slice(0, 6)}/${t.slice(6, 8)}/${t.slice(8, 9)}/${t}`;
}

/** Session, kind and id of a record key, or undefined when the key is not a well-formed record key. */
export function parseRecordKey(key: string): { session: string; kind: string; id: string; ms: number } | undefined {
  const m = KEY_RE.exec(key);
  if (!m) return undefined;
  const id = m[6]!;
  if (!id.startsWith(m[3]! + m[4]! + m[5]!)) return undefined;
  return { session: m[1]!, kind: m[2]!, id, ms: Number(id.slice(0, TIME_DIGITS)) };
}

export function isRecordId(id: string): boolean {
  return ID_RE.test(id);
}

export const msOfRecordId = (id: string) => Number(id.slice(0, TIME_DIGITS));
