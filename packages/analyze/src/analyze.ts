import { basename } from "node:path";
import { ArefError, DEFAULT_FETCH_MAX_CHARS } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { artifactRefOf, readTranscriptText, rehydrateTranscript } from "@artifact-refs/context";
import { parseReplayTranscript, toReplay, type ParsedReplay } from "./formats.js";
import { buildAnalyzeReport, type AnalyzeReport, type FileResult } from "./report.js";
import { replayTranscript, totalReports, type ReplayOptions } from "./replay.js";

export interface AnalyzeOptions extends Omit<ReplayOptions, "onCall"> {
  /**
   * Store holding the payloads of a project transcript whose tool results are references
   * (or a function that opens it, called only when such a transcript is met).
   */
  store?: ArtifactStore | (() => Promise<ArtifactStore>);
  /** Called after each transcript (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** Parses one transcript text and restores referenced payloads (project JSONL) from the store. */
export async function loadReplayMessages(
  text: string,
  where: string,
  store?: ArtifactStore | (() => Promise<ArtifactStore>),
): Promise<ParsedReplay> {
  const parsed = parseReplayTranscript(text, where);
  if (!parsed.entries?.some((e) => artifactRefOf(e) !== undefined)) return parsed;
  if (!store) {
    throw new ArefError(
      "INVALID_INPUT",
      `${where} holds artifact references instead of some tool payloads, so it cannot be replayed without its store`,
      {
        hint: "pass --store with the store the transcript was written to",
      },
    );
  }
  const opened = typeof store === "function" ? await store() : store;
  const rehydrated = await rehydrateTranscript(parsed.entries, { store: opened, strict: true });
  return { ...parsed, messages: rehydrated.entries.map(toReplay) };
}

/** Replays transcript files and builds the `aref analyze` report (the `--json` shape). */
export async function analyzeFiles(paths: readonly string[], options: AnalyzeOptions = {}): Promise<AnalyzeReport> {
  if (paths.length === 0)
    throw new ArefError("INVALID_INPUT", "no transcript given", { hint: "aref analyze <transcript> [more…]" });
  const results: FileResult[] = [];
  // Files are named by their base name, or by the path given when two base names are the same.
  const names = paths.map((p) => basename(p));
  const clash = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  for (const [i, path] of paths.entries()) {
    const text = await readTranscriptText(path);
    results.push(await analyzeOne(clash.has(names[i]!) ? path : names[i]!, text, path, options));
    options.onProgress?.(results.length, paths.length);
  }
  return finish(results, options);
}

/** The same for transcripts already in memory ({name, text}). */
export async function analyzeTexts(
  inputs: ReadonlyArray<{ name: string; text: string }>,
  options: AnalyzeOptions = {},
): Promise<AnalyzeReport> {
  if (inputs.length === 0) throw new ArefError("INVALID_INPUT", "no transcript given");
  const results: FileResult[] = [];
  for (const input of inputs) results.push(await analyzeOne(input.name, input.text, input.name, options));
  return finish(results, options);
}

async function analyzeOne(name: string, text: string, where: string, options: AnalyzeOptions): Promise<FileResult> {
  const parsed = await loadReplayMessages(text, where, options.store);
  if (!parsed.messages.some((m) => m.role === "assistant")) {
    throw new ArefError("INVALID_INPUT", `${where} has no assistant message, so there is no model call to analyze`, {
      hint: "a transcript to analyze needs at least one assistant message",
    });
  }
  const { store: _store, onProgress: _progress, ...replayOptions } = options;
  const report = await replayTranscript(parsed.messages, replayOptions);
  return { file: name, format: parsed.format, report, ...(parsed.warnings ? { warnings: parsed.warnings } : {}) };
}

function finish(results: FileResult[], options: AnalyzeOptions): AnalyzeReport {
  return buildAnalyzeReport(results, totalReports(results.map((r) => r.report)), {
    maxPromptTokens: options.maxPromptTokens ?? 8_000,
    fetchChars: options.fetchChars ?? DEFAULT_FETCH_MAX_CHARS,
    keepTurns: options.keepTurns ?? 2,
    encoding: options.encoding ?? "cl100k_base",
    ...(options.appendCompaction === undefined ? {} : { appendCompaction: options.appendCompaction }),
    ...(typeof options.priceModel === "string" ? { priceModel: options.priceModel } : {}),
  });
}
