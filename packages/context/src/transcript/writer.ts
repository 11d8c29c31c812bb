import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import {
  ArefError,
  TranscriptEntrySchema,
  formatIssues,
  parseSessionId,
  type TranscriptEntry,
} from "@artifact-refs/schema";
import type { z } from "zod";
import type { ExternalizedResult, Externalizer, ToolResultInput } from "../externalizer.js";
import { tagInjected } from "../injected.js";
import { waitWhileMigrating } from "./migrate.js";

export type TranscriptEntryInput = z.input<typeof TranscriptEntrySchema>;

export interface TranscriptWriterOptions {
  /** JSONL file to append to (created 0600, its directory 0700). */
  path: string;
  session: string;
  /** Decides per tool result: inline or a reference. Its redaction rules also apply to the other lines. */
  externalizer: Externalizer;
  /** Redact user/assistant/system lines and tool-call arguments too (default true). */
  redact?: boolean;
}

/**
 * Appends a session transcript as JSONL. Tool results go through the externalizer, so
 * a large result is one line with `details.artifactRef` and no payload (docs/ARCHITECTURE.md §memory).
 * Appends are serialized: lines never interleave.
 */
export class TranscriptWriter {
  readonly path: string;
  readonly session: string;
  readonly externalizer: Externalizer;
  readonly #redact: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  #ready: Promise<void> | undefined;

  constructor(options: TranscriptWriterOptions) {
    this.path = options.path;
    this.session = parseSessionId(options.session);
    this.externalizer = options.externalizer;
    this.#redact = options.redact !== false;
  }

  /**
   * Appends one validated entry. Secrets in its content and tool-call arguments are redacted
   * (the kinds are added to `details.redactions`), injected context included, unless
   * `redact: false` was given; clean entries are written unchanged.
   */
  append(entry: TranscriptEntryInput): Promise<TranscriptEntry> {
    return this.#enqueue(Promise.resolve(entry), (e) => (this.#redact ? this.#redacted(e) : e));
  }

  #redacted(entry: TranscriptEntryInput): TranscriptEntryInput {
    // Injected context is redacted too (issue 17 #4); only the kit's own reference hints are skipped.
    if (entry.details?.artifactRef !== undefined) return entry;
    const kinds = new Set<string>();
    const content = this.externalizer.redactText(entry.content);
    for (const k of content.kinds) kinds.add(k);
    const calls = entry.tool_calls?.map((c) => {
      const r = this.externalizer.redactText(c.arguments);
      for (const k of r.kinds) kinds.add(k);
      return r.text === c.arguments ? c : { ...c, arguments: r.text };
    });
    if (kinds.size === 0) return entry;
    const previous = entry.details?.redactions ?? [];
    return {
      ...entry,
      content: content.text,
      ...(calls ? { tool_calls: calls } : {}),
      details: { ...entry.details, redactions: [...new Set([...previous, ...kinds])].sort() },
    };
  }

  /**
   * Queues a line in call order: `pending` may settle in any order (externalizing runs
   * concurrently), but lines are written in the order the appends were called.
   */
  #enqueue<T>(pending: Promise<T>, entryOf: (value: T) => TranscriptEntryInput): Promise<TranscriptEntry> {
    pending.catch(() => undefined);
    const run = this.#queue.then(async () => {
      const value = await pending;
      const parsed = TranscriptEntrySchema.safeParse(entryOf(value));
      if (!parsed.success)
        throw new ArefError("INVALID_INPUT", `invalid transcript entry: ${formatIssues(parsed.error)}`);
      this.#ready ??= mkdir(dirname(this.path), { recursive: true, mode: 0o700 }).then(() => undefined);
      await this.#ready;
      await waitWhileMigrating(this.path); // a migration of another process holds the file: append after it
      await appendFile(this.path, `${JSON.stringify(parsed.data)}\n`, { encoding: "utf8", mode: 0o600 });
      return parsed.data;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Appends a user/assistant/system message. */
  appendMessage(
    role: "system" | "user" | "assistant",
    content: string,
    extra: Partial<TranscriptEntryInput> = {},
  ): Promise<TranscriptEntry> {
    return this.append({ ...extra, role, content });
  }

  /** Appends injected context (tagged, never stashed again). */
  appendInjected(content: string, role: "system" | "user" | "tool" = "system"): Promise<TranscriptEntry> {
    return this.append({ role, content: tagInjected(content), details: { injected: true } });
  }

  /** Externalizes a tool result and appends its transcript line; returns what the model sees. */
  async appendToolResult(input: Omit<ToolResultInput, "session">): Promise<ExternalizedResult> {
    const externalizing = this.externalizer.externalize({ ...input, session: this.session });
    await this.#enqueue(externalizing, (r) => r.entry);
    return externalizing;
  }

  /** Resolves when every append so far is on disk. */
  async flush(): Promise<void> {
    await this.#queue;
  }
}
