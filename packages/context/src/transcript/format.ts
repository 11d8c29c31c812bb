import { ArefError, TranscriptEntrySchema, formatIssues, type TranscriptEntry } from "@artifact-refs/schema";

export const TRANSCRIPT_FORMATS = ["jsonl", "json", "auto"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** One parsed line: the validated entry, the raw object (all keys, original order) and where it came from. */
export interface ParsedLine {
  entry: TranscriptEntry;
  raw: Record<string, unknown>;
  /** 1-based line number in the file (for JSON arrays: the array index + 1). */
  line: number;
  /** The exact source text of the line (JSONL only), so untouched lines are rewritten byte-identical. */
  source?: string;
}

export interface ParsedTranscript {
  format: "jsonl" | "json";
  lines: ParsedLine[];
  /** For JSONL: the line terminator used ("\n" or "\r\n"); whether the file ended with one. */
  eol: string;
  finalNewline: boolean;
  /** For JSON: the wrapper key when the file was {"messages": [...]}. */
  wrapperKey?: string;
}

export function checkFormat(format: unknown): TranscriptFormat {
  if (typeof format === "string" && (TRANSCRIPT_FORMATS as readonly string[]).includes(format))
    return format as TranscriptFormat;
  throw new ArefError("UNSUPPORTED", `unknown transcript format ${JSON.stringify(format)}`, {
    hint: `use one of ${TRANSCRIPT_FORMATS.join(", ")}`,
  });
}

/** Detects JSONL (one object per line) or JSON (an array, or {messages: [...]}). */
export function detectFormat(text: string, where = "transcript"): "jsonl" | "json" {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body.length === 0) return "jsonl";
  if (body.startsWith("[")) return "json";
  if (body.startsWith("{")) {
    const firstLine = body.split("\n", 1)[0]!.trim();
    let first: unknown;
    try {
      first = JSON.parse(firstLine);
    } catch {
      return "json";
    }
    const obj = first as Record<string, unknown>;
    return Array.isArray(obj.messages) && obj.role === undefined ? "json" : "jsonl";
  }
  throw new ArefError(
    "UNSUPPORTED",
    `unknown format of ${where}: it is neither JSONL (one JSON object per line) nor a JSON array of messages`,
    {
      hint: "a transcript is JSONL with one {role, content, …} object per line, or a JSON array of such objects",
      details: { starts_with: body.slice(0, 20) },
    },
  );
}

function validate(raw: unknown, line: number, where: string): ParsedLine {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ArefError(
      "INVALID_INPUT",
      `${where}:${line}: expected a JSON object, got ${Array.isArray(raw) ? "an array" : typeof raw}`,
      {
        details: { line },
      },
    );
  }
  // OpenAI-style assistant messages that only call tools carry `content: null`: read it as "".
  // The raw object (and so the line's bytes) is left as it was.
  // OpenAI's nested tool calls ({id, type, function: {name, arguments}}) are read flat.
  const obj = raw as { content?: unknown; tool_calls?: unknown };
  let candidate: unknown = obj.content === null ? { ...obj, content: "" } : raw;
  if (Array.isArray(obj.tool_calls)) {
    const calls = obj.tool_calls.map((c: unknown) => {
      const call = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      return call && typeof call === "object" && call.function && typeof call.function === "object"
        ? { id: call.id ?? null, name: call.function.name, arguments: call.function.arguments }
        : c;
    });
    candidate = { ...(candidate as object), tool_calls: calls };
  }
  const result = TranscriptEntrySchema.safeParse(candidate);
  if (!result.success) {
    throw new ArefError("INVALID_INPUT", `${where}:${line}: not a transcript entry: ${formatIssues(result.error)}`, {
      hint: "each entry needs role (system|user|assistant|tool) and content (a string)",
      details: { line },
    });
  }
  return { entry: result.data, raw: raw as Record<string, unknown>, line };
}

/**
 * Parses a transcript. Errors name the file and the 1-based line number of the problem.
 * Blank lines in JSONL are skipped.
 */
export function parseTranscript(
  text: string,
  options: { format?: TranscriptFormat; where?: string } = {},
): ParsedTranscript {
  const where = options.where ?? "transcript";
  const format = checkFormat(options.format ?? "auto");
  const actual = format === "auto" ? detectFormat(text, where) : format;
  const clean = text.replace(/^\uFEFF/, "");
  if (actual === "json") {
    let value: unknown;
    try {
      value = JSON.parse(clean);
    } catch (error) {
      throw new ArefError("INVALID_INPUT", `${where} is not valid JSON: ${(error as Error).message}`, {
        hint: "fix the file or pass the right format",
      });
    }
    let wrapperKey: string | undefined;
    let list: unknown = value;
    if (
      !Array.isArray(value) &&
      typeof value === "object" &&
      value !== null &&
      Array.isArray((value as { messages?: unknown }).messages)
    ) {
      wrapperKey = "messages";
      list = (value as { messages: unknown[] }).messages;
    }
    if (!Array.isArray(list)) {
      throw new ArefError("UNSUPPORTED", `${where} is JSON but not an array of messages (nor {"messages": [...]})`, {
        hint: "a JSON transcript is an array of {role, content, …} objects",
      });
    }
    return {
      format: "json",
      lines: list.map((raw, i) => validate(raw, i + 1, where)),
      eol: "\n",
      finalNewline: clean.endsWith("\n"),
      ...(wrapperKey ? { wrapperKey } : {}),
    };
  }
  const eol = clean.includes("\r\n") ? "\r\n" : "\n";
  const parts = clean.split("\n");
  const finalNewline = clean.endsWith("\n");
  if (finalNewline) parts.pop();
  const lines: ParsedLine[] = [];
  parts.forEach((rawLine, i) => {
    const source = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (source.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      throw new ArefError("INVALID_INPUT", `${where}:${i + 1}: invalid JSON: ${(error as Error).message}`, {
        hint: "each line of a JSONL transcript must be one complete JSON object",
        details: { line: i + 1 },
      });
    }
    lines.push({ ...validate(value, i + 1, where), source });
  });
  return { format: "jsonl", lines, eol, finalNewline };
}

/** Serializes lines back: untouched JSONL lines keep their exact source text. */
export function serializeTranscript(parsed: ParsedTranscript): string {
  if (parsed.format === "json") {
    const list = parsed.lines.map((l) => l.raw);
    const body = JSON.stringify(parsed.wrapperKey ? { [parsed.wrapperKey]: list } : list, null, 2);
    return parsed.finalNewline ? `${body}\n` : body;
  }
  const body = parsed.lines.map((l) => l.source ?? JSON.stringify(l.raw)).join(parsed.eol);
  return parsed.lines.length > 0 && parsed.finalNewline ? `${body}${parsed.eol}` : body;
}
