import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import {
  appendFile,
  copyFile,
  link,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  type FileHandle,
} from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ArefError, isArefError, parseSessionId } from "@artifact-refs/schema";
import { z } from "zod";
import type { Externalizer } from "../externalizer.js";
import { isInjected } from "../injected.js";
import { utf8Length } from "../payload.js";
import { parseTranscript, type ParsedLine, type ParsedTranscript, type TranscriptFormat } from "./format.js";
import { arrayElements, editEntryObject, objectMembers, skipWs } from "./json-spans.js";
import { transcriptReadError } from "./reader.js";

export interface MigrateOptions {
  /** Decides what to stash and stores it (its store, thresholds and redaction are used). */
  externalizer: Externalizer;
  /** Session the migrated artifacts are referenced from. */
  session: string;
  /** Report what would change; write nothing (no store puts, no file changes). */
  dryRun?: boolean;
  /** Keep a copy of the original before rewriting (default true): `<file>.bak`, or `<file>.bak.N` when that is taken by other content. */
  backup?: boolean;
  format?: TranscriptFormat;
  /** Called after each tool result is handled. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Called after the last "changed while migrating" check, just before the file is replaced (for
   * tests and tools that need to act in that window; a writer appending here must not be lost).
   */
  beforeReplace?: () => Promise<void> | void;
}

export const MigrationSkipSchema = z.object({ line: z.number().int().positive(), reason: z.string() });
export type MigrationSkip = z.infer<typeof MigrationSkipSchema>;

/** The receipt of a migration (`aref migrate --json` prints it). */
export const MigrationReportSchema = z.object({
  schema: z.literal("artifact-refs.migrate.v1"),
  path: z.string(),
  format: z.enum(["jsonl", "json"]),
  dry_run: z.boolean(),
  session: z.string(),
  entries: z.number().int().nonnegative(),
  tool_results: z.number().int().nonnegative(),
  /** Tool results moved to the store (or that would be, in a dry run). */
  migrated: z.number().int().nonnegative(),
  already_referenced: z.number().int().nonnegative(),
  kept_inline: z.number().int().nonnegative(),
  /** Results that qualified but could not be stored (over the store's cap); they stay inline, nothing is lost. */
  skipped: z.array(MigrationSkipSchema),
  bytes_before: z.number().int().nonnegative(),
  /** Size after the rewrite (dry run: the size before, as nothing is written). */
  bytes_after: z.number().int().nonnegative(),
  /** Payload bytes moved out of the transcript. */
  bytes_externalized: z.number().int().nonnegative(),
  /** Kind of secret → how many migrated payloads had it redacted. */
  redactions: z.record(z.string(), z.number().int().nonnegative()),
  /** True when the file was rewritten. A rerun over a migrated file is a no-op: false. */
  changed: z.boolean(),
  backup: z.string().optional(),
});
export type MigrationReport = z.infer<typeof MigrationReportSchema>;

const TEMP_MARK = ".aref-migrate-";

/** Removes temp files an interrupted migration of `path` left behind. */
async function sweepTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}${TEMP_MARK}`;
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith(".tmp")) await rm(join(dir, name), { force: true });
  }
}

async function sameContent(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([readFile(a), readFile(b)]);
    return x.equals(y);
  } catch {
    return false;
  }
}

/** Picks the backup path: reuses `<file>.bak` when it already holds the same bytes (a rerun). */
async function backupPath(path: string): Promise<{ path: string; exists: boolean }> {
  for (let n = 0; n < 1_000; n++) {
    const candidate = n === 0 ? `${path}.bak` : `${path}.bak.${n}`;
    try {
      await stat(candidate);
    } catch {
      return { path: candidate, exists: false };
    }
    if (await sameContent(candidate, path)) return { path: candidate, exists: true };
  }
  throw new ArefError("CONFLICT", `too many backups of ${path}`, { hint: "remove old .bak files" });
}

/** Writes `text` to `path` atomically: temp file in the same directory, fsync, rename, fsync the directory. */
async function writeAtomic(path: string, text: Uint8Array, mode: number): Promise<void> {
  const temp = `${path}${TEMP_MARK}${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  try {
    const dir = await open(dirname(path), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some filesystems do not allow fsync on a directory; the rename is still atomic.
  }
}

function isCandidate(line: ParsedLine): boolean {
  const { entry } = line;
  return (
    entry.role === "tool" &&
    entry.details?.artifactRef === undefined &&
    entry.details?.injected !== true &&
    !isInjected(entry.content)
  );
}

/**
 * Migrates a legacy transcript whose tool results carry inline payloads: each result the
 * externalizer's rules would stash is stored and replaced by `details.artifactRef`.
 * Dry run, backup, atomic rewrite (temp + fsync + rename), idempotent (a migrated file
 * is left untouched), and safe to interrupt: the original stays intact until the rename,
 * and a rerun completes (stored payloads dedupe). Untouched lines keep their exact bytes.
 */
export async function migrateTranscript(path: string, options: MigrateOptions): Promise<MigrationReport> {
  parseSessionId(options.session);
  if (options.dryRun === true) return migrateLocked(path, options);
  const release = await acquireLock(path);
  try {
    return await migrateLocked(path, options);
  } finally {
    await release();
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One migration per transcript at a time; a lock left by a dead process is taken over. */
async function acquireLock(path: string): Promise<() => Promise<void>> {
  const lock = `${path}.aref-migrate.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number((await readFile(lock, "utf8").catch(() => "")).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new ArefError("CONFLICT", `another migration of ${path} is running (process ${holder})`, {
          hint: `wait for it to finish; if no migration is running, remove ${lock}`,
        });
      }
      await rm(lock, { force: true }); // stale: its process is gone
    }
  }
  throw new ArefError("CONFLICT", `cannot take the migration lock of ${path}`, {
    hint: `remove ${path}.aref-migrate.lock and retry`,
  });
}

async function migrateLocked(path: string, options: MigrateOptions): Promise<MigrationReport> {
  const session = parseSessionId(options.session);
  const dryRun = options.dryRun === true;
  let bytes: Buffer;
  let mode = 0o600;
  let before: { size: number; mtimeMs: number };
  try {
    const info = await stat(path);
    bytes = await readFile(path);
    mode = info.mode & 0o777;
    before = { size: bytes.byteLength, mtimeMs: info.mtimeMs };
  } catch (error) {
    throw transcriptReadError(path, error);
  }
  // Parsed from a lenient decoding; written back from the original bytes (see editBytes): a line with
  // invalid UTF-8 is never migrated, so no replacement character ever reaches the file or the store.
  const text = new TextDecoder("utf-8").decode(bytes);
  const parsed = parseTranscript(text, { format: options.format ?? "auto", where: path });
  const byteLines = parsed.format === "jsonl" ? splitLines(bytes) : [];
  if (parsed.format === "json" && !isUtf8(bytes)) {
    throw new ArefError("INVALID_INPUT", `${path} is not valid UTF-8; nothing was migrated`, {
      hint: "fix the file's encoding first",
    });
  }
  const edits = new Map<ParsedLine, Record<string, unknown>>();
  if (!dryRun) await sweepTemps(path);
  const ext = options.externalizer;
  const tools = parsed.lines.filter((l) => l.entry.role === "tool");
  const report: MigrationReport = {
    schema: "artifact-refs.migrate.v1",
    path,
    format: parsed.format,
    dry_run: dryRun,
    session,
    entries: parsed.lines.length,
    tool_results: tools.length,
    migrated: 0,
    already_referenced: tools.filter((l) => l.entry.details?.artifactRef !== undefined).length,
    kept_inline: 0,
    skipped: [],
    bytes_before: bytes.byteLength,
    bytes_after: bytes.byteLength,
    bytes_externalized: 0,
    redactions: {},
    changed: false,
  };
  let done = 0;
  for (const line of parsed.lines) {
    if (line.entry.role !== "tool") continue;
    if (isCandidate(line) && parsed.format === "jsonl" && !isUtf8(byteLines[line.line - 1]!)) {
      report.skipped.push({ line: line.line, reason: "the line is not valid UTF-8: left untouched" });
    } else if (isCandidate(line)) {
      const prepared = ext.prepare({
        session,
        tool: line.entry.tool_name ?? "unknown_tool",
        result: line.entry.content,
      });
      if (!prepared.decision.externalize) {
        report.kept_inline++;
      } else if (dryRun) {
        report.migrated++;
        report.bytes_externalized += utf8Length(line.entry.content);
        for (const kind of prepared.redactions) report.redactions[kind] = (report.redactions[kind] ?? 0) + 1;
      } else {
        try {
          const stashed = await ext.stash(prepared);
          edits.set(line, stashed.details as Record<string, unknown>);
          report.migrated++;
          report.bytes_externalized += utf8Length(line.entry.content);
          for (const kind of prepared.redactions) report.redactions[kind] = (report.redactions[kind] ?? 0) + 1;
        } catch (error) {
          // Too large for the store: keep it inline (nothing is lost) and say so.
          if (isArefError(error) && error.code === "TOO_LARGE")
            report.skipped.push({ line: line.line, reason: error.message });
          else throw error;
        }
      }
    }
    done++;
    options.onProgress?.(done, tools.length);
  }
  if (dryRun || report.migrated === 0) return report;
  const output = parsed.format === "jsonl" ? editJsonl(byteLines, edits) : editJson(text, parsed, edits);
  // A writer appended while we worked: refuse rather than drop its lines (a rerun picks them up).
  const changed = () =>
    new ArefError("CONFLICT", `${path} changed while it was being migrated; nothing was rewritten`, {
      hint: "stop the agent writing this transcript, then run the migration again (stored payloads are reused)",
    });
  const original = await open(path, "r"); // the inode we read: appends after the rename still land in it
  try {
    const now = await original.stat();
    if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) throw changed();
    if (options.backup !== false) {
      const backup = await backupPath(path);
      if (!backup.exists) await copyFile(path, backup.path);
      report.backup = backup.path;
    }
    await replaceChecked(path, original, before.size, output, mode, options.beforeReplace, changed);
  } finally {
    await original.close();
  }
  report.bytes_after = output.byteLength;
  report.changed = true;
  return report;
}

const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The file's physical lines as bytes, split at LF (each keeps its CR, if any); the last one may be empty. */
function splitLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    out.push(bytes.subarray(start, i));
    start = i + 1;
  }
  out.push(bytes.subarray(start));
  return out;
}

/** JSONL: the original bytes with each migrated line edited at its payload's span; every other byte as it was. */
function editJsonl(lines: Buffer[], edits: Map<ParsedLine, Record<string, unknown>>): Buffer {
  const out = [...lines];
  for (const [line, details] of edits) {
    const raw = lines[line.line - 1]!.toString("utf8");
    const cr = raw.endsWith("\r") ? "\r" : "";
    const body = cr ? raw.slice(0, -1) : raw;
    const start = skipWs(body, 0);
    const end = body.length - (body.length - body.trimEnd().length);
    out[line.line - 1] = Buffer.from(
      `${body.slice(0, start)}${editEntryObject(body, start, details)}${body.slice(end)}${cr}`,
      "utf8",
    );
  }
  const joined: Buffer[] = [];
  out.forEach((l, i) => {
    if (i > 0) joined.push(Buffer.from([0x0a]));
    joined.push(l);
  });
  return Buffer.concat(joined);
}

/** JSON (an array or {messages: [...]} with any other fields): the text edited at each migrated element's span. */
function editJson(text: string, parsed: ParsedTranscript, edits: Map<ParsedLine, Record<string, unknown>>): Buffer {
  const top = skipWs(text, 0);
  let arrayAt = top;
  if (text[top] === "{") {
    const messages = [...objectMembers(text, top).members]
      .reverse()
      .find((m) => m.key === (parsed.wrapperKey ?? "messages"));
    if (messages === undefined) throw new ArefError("INTERNAL", "the messages array moved while migrating");
    arrayAt = messages.valueStart;
  }
  const spans = arrayElements(text, arrayAt);
  let out = text;
  const ordered = parsed.lines
    .map((line, i) => ({ line, span: spans[i]! }))
    .filter((x) => edits.has(x.line))
    .reverse();
  for (const { line, span } of ordered)
    out = out.slice(0, span.start) + editEntryObject(text, span.start, edits.get(line)!) + out.slice(span.end);
  return Buffer.from(out, "utf8");
}

/** How long writers that opened the old file just before the rename get to finish their append. */
const SETTLE_MS = 30;

/**
 * Replaces `path` with `output`, atomically with respect to appending writers: the original inode
 * keeps a second name while the new file is renamed in; after a short settle time its size is checked
 * again. If a writer appended to it after the last check (or opened it before the rename and wrote
 * after), the original, with the new lines, is put back (plus anything written to the new file
 * meanwhile) and the migration reports CONFLICT: no line is ever lost.
 */
async function replaceChecked(
  path: string,
  original: FileHandle,
  size: number,
  output: Uint8Array,
  mode: number,
  beforeReplace: (() => Promise<void> | void) | undefined,
  changed: () => Error,
): Promise<void> {
  const hold = `${path}${TEMP_MARK}hold-${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  await link(path, hold);
  try {
    await beforeReplace?.();
    await writeAtomic(path, output, mode);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if ((await original.stat()).size === size) return;
    // Lines written to the new file since the rename belong after the original's.
    const current = await readFile(path).catch(() => Buffer.alloc(0));
    if (current.byteLength > output.byteLength) await appendFile(hold, current.subarray(output.byteLength));
    await rename(hold, path);
    throw changed();
  } finally {
    await rm(hold, { force: true });
  }
}

/**
 * The transcript writer's side of the migration lock: while a live migration holds `path`'s lock,
 * appends wait (polling, up to `maxWaitMs`) so they land after the rewrite, not in the replaced file.
 */
export async function waitWhileMigrating(path: string, maxWaitMs = 120_000): Promise<void> {
  const lock = `${path}.aref-migrate.lock`;
  if (!existsSync(lock)) return;
  const started = Date.now();
  while (existsSync(lock)) {
    const holder = Number((await readFile(lock, "utf8").catch(() => "")).trim());
    if (!(Number.isInteger(holder) && holder > 0) || holder === process.pid || !processAlive(holder)) return;
    if (Date.now() - started > maxWaitMs) {
      throw new ArefError(
        "CONFLICT",
        `${path} is being migrated by process ${holder}; gave up waiting after ${maxWaitMs} ms`,
        { hint: "retry once the migration is done" },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
