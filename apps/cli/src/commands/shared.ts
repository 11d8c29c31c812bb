import { ArefError, MAX_LABEL_CHARS, parseSessionId, type ArtifactType } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** Every command module exports one of these; commands/index.ts lists them. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

export const REF_ARGUMENT_HELP =
  "artifact: a short ref (art:<12+ hex>), a bare hex prefix (12+), a full 64-hex id, or a handle (aref:v1:sha256:<64 hex>)";
export const DEFAULT_SESSION = "default";

/** An "Examples:" block for `--help`; each example is [command, what it does]. */
export function examples(rows: Array<[string, string]>): string {
  return `\nExamples:\n${rows.map(([cmd, what]) => `  $ ${cmd}\n      ${what}`).join("\n")}\n`;
}

/** Validates a --session value (letters, digits, . _ : -; at most 128 chars). */
export function sessionOf(value: string | undefined): string | undefined {
  return value === undefined ? undefined : parseSessionId(value);
}

export function checkLabel(label: string): string {
  if (label.length > MAX_LABEL_CHARS) {
    throw new ArefError("INVALID_INPUT", `the label is ${label.length} characters, the limit is ${MAX_LABEL_CHARS}`, {
      hint: "give a shorter --label",
    });
  }
  return label;
}

const TYPE_BY_EXTENSION: Array<[RegExp, ArtifactType]> = [
  [/\.(log|out|err)$/i, "log"],
  [/\.(md|markdown|txt|rst|adoc|pdf|html?)$/i, "doc"],
  [/\.(json|jsonl|ndjson|csv|tsv|ya?ml|xml|toml|parquet)$/i, "data"],
  [/\.(ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|sh|bash|sql|css|scss)$/i, "code"],
];

/** The artifact type a file's extension suggests (tool_output when nothing matches). */
export function typeFromFileName(name: string | undefined): ArtifactType {
  if (name !== undefined) for (const [re, type] of TYPE_BY_EXTENSION) if (re.test(name)) return type;
  return "tool_output";
}

/** Resolves on the first SIGINT or SIGTERM (for the long-running `serve` and `mcp --http`), then stops listening. */
export function untilStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
