import { randomBytes } from "node:crypto";
import { copyFile, open, readFile, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ArefError, isArefError, parseSessionId } from "@artifact-refs/schema";
import { z } from "zod";
import type { Externalizer } from "../externalizer.js";
import { isInjected } from "../injected.js";
import { utf8Length } from "../payload.js";
import { parseTranscript, serializeTranscript, type ParsedLine, type TranscriptFormat } from "./format.js";
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
async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const temp = `${path}${TEMP_MARK}${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(text, "utf8");
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
  return entry.role === "tool" && entry.details?.artifactRef === undefined && entry.details?.injected !== true && !isInjected(entry.content);
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
  throw new ArefError("CONFLICT", `cannot take the migration lock of ${path}`, { hint: `remove ${path}.aref-migrate.lock and retry` });
}

async function migrateLocked(path: string, options: MigrateOptions): Promise<MigrationReport> {
  const session = parseSessionId(options.session);
  const dryRun = options.dryRun === true;
  let text: string;
  let mode = 0o600;
  let before: { size: number; mtimeMs: number };
  try {
    const info = await stat(path);
    text = await readFile(path, "utf8");
    mode = info.mode & 0o777;
    before = { size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    throw transcriptReadError(path, error);
  }
  const parsed = parseTranscript(text, { format: options.format ?? "auto", where: path });
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
    bytes_before: utf8Length(text),
    bytes_after: utf8Length(text),
    bytes_externalized: 0,
    redactions: {},
    changed: false,
  };
  let done = 0;
  for (const line of parsed.lines) {
    if (line.entry.role !== "tool") continue;
    if (isCandidate(line)) {
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
          const raw: Record<string, unknown> = {};
          for (const [key, value] of Object.entries(line.raw)) raw[key] = key === "content" ? "" : value;
          raw.details = { ...((line.raw.details as Record<string, unknown> | undefined) ?? {}), ...stashed.details };
          line.raw = raw;
          delete line.source;
          report.migrated++;
          report.bytes_externalized += utf8Length(line.entry.content);
          for (const kind of prepared.redactions) report.redactions[kind] = (report.redactions[kind] ?? 0) + 1;
        } catch (error) {
          // Too large for the store: keep it inline (nothing is lost) and say so.
          if (isArefError(error) && error.code === "TOO_LARGE") report.skipped.push({ line: line.line, reason: error.message });
          else throw error;
        }
      }
    }
    done++;
    options.onProgress?.(done, tools.length);
  }
  if (dryRun || report.migrated === 0) return report;
  const output = serializeTranscript(parsed);
  // A writer appended while we worked: refuse rather than drop its lines (a rerun picks them up).
  const now = await stat(path);
  if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
    throw new ArefError("CONFLICT", `${path} changed while it was being migrated; nothing was rewritten`, {
      hint: "stop the agent writing this transcript, then run the migration again (stored payloads are reused)",
    });
  }
  if (options.backup !== false) {
    const backup = await backupPath(path);
    if (!backup.exists) await copyFile(path, backup.path);
    report.backup = backup.path;
  }
  await writeAtomic(path, output, mode);
  report.bytes_after = utf8Length(output);
  report.changed = true;
  return report;
}
