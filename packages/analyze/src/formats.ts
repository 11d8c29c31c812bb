import { ArefError, formatIssues, type ToolCall, type TranscriptEntry } from "@artifact-refs/schema";
import { z } from "zod";
import { parseTranscript } from "@artifact-refs/context";

/** Transcript formats `aref analyze` reads. */
export const ANALYZE_FORMATS = ["project-jsonl", "trajectory-jsonl", "openai", "anthropic"] as const;
export type AnalyzeFormat = (typeof ANALYZE_FORMATS)[number];

/** One message of a transcript to replay, as the agent saw it (payloads inline). */
export interface ReplayMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  tool_name?: string;
  tool_call_id?: string | null;
  tool_calls?: ToolCall[];
}

export interface ParsedReplay {
  format: AnalyzeFormat;
  messages: ReplayMessage[];
  /** Project-JSONL entries that hold a reference instead of the payload (need a store to replay). */
  entries?: TranscriptEntry[];
  /** What the parser had to interpret (unknown roles, structured content). */
  warnings?: string[];
}

const FORMAT_HINT =
  "analyze reads: this project's transcript JSONL, trajectory JSONL ({role, content, tool_name?, tool_call_id?, tool_calls?} per line), " +
  'an OpenAI chat "messages" array (or {"messages": [...]}), or an Anthropic "messages" array (or {"system", "messages"})';

// ---- OpenAI ----
const OpenAiTextPart = z.object({ type: z.string(), text: z.string().optional() }).passthrough();
const OpenAiContent = z.union([z.string(), z.array(OpenAiTextPart), z.null()]).optional();
const OpenAiToolCall = z.object({
  id: z.string().nullable().optional(),
  type: z.string().optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  }),
});
const OpenAiMessage = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
    content: OpenAiContent,
    name: z.string().optional(),
    tool_call_id: z.string().nullable().optional(),
    tool_calls: z.array(OpenAiToolCall).optional(),
    /** The legacy single function call of an assistant message. */
    function_call: z.object({ name: z.string(), arguments: z.string().optional() }).optional(),
  })
  .passthrough();

// ---- Anthropic ----
const AnthropicBlock = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    input: z.unknown().optional(),
    tool_use_id: z.string().optional(),
    content: z
      .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough())])
      .optional(),
  })
  .passthrough();
const AnthropicMessage = z
  .object({ role: z.enum(["user", "assistant"]), content: z.union([z.string(), z.array(AnthropicBlock)]) })
  .passthrough();
const AnthropicSystem = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
]);

function partsText(content: z.infer<typeof OpenAiContent>): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return content.map((p) => (typeof p.text === "string" ? p.text : `[${p.type}]`)).join("\n");
}

function invalid(where: string, index: number, what: string, error: z.ZodError): ArefError {
  return new ArefError(
    "INVALID_INPUT",
    `${where}: message ${index + 1} is not a valid ${what} message: ${formatIssues(error)}`,
    {
      hint: FORMAT_HINT,
      details: { message: index + 1 },
    },
  );
}

function fromOpenAi(list: unknown[], where: string): ReplayMessage[] {
  const out: ReplayMessage[] = [];
  list.forEach((raw, i) => {
    const parsed = OpenAiMessage.safeParse(raw);
    if (!parsed.success) throw invalid(where, i, "OpenAI chat", parsed.error);
    const m = parsed.data;
    const role = m.role === "developer" ? "system" : m.role === "function" ? "tool" : m.role;
    const msg: ReplayMessage = { role, content: partsText(m.content) };
    if (role === "tool") {
      if (m.tool_call_id !== undefined) msg.tool_call_id = m.tool_call_id;
      const call = m.tool_call_id ? findCall(out, m.tool_call_id) : undefined;
      const name = m.name ?? call?.name;
      if (name) msg.tool_name = name;
    }
    if (m.function_call && !(m.tool_calls && m.tool_calls.length > 0)) {
      msg.tool_calls = [{ id: null, name: m.function_call.name, arguments: m.function_call.arguments ?? "" }];
    }
    if (m.tool_calls && m.tool_calls.length > 0) {
      msg.tool_calls = m.tool_calls.map((c) => ({
        id: c.id ?? null,
        name: c.function.name,
        arguments:
          typeof c.function.arguments === "string" ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}),
      }));
    }
    out.push(msg);
  });
  return out;
}

function findCall(messages: ReplayMessage[], id: string): ToolCall | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const call = messages[i]!.tool_calls?.find((c) => c.id === id);
    if (call) return call;
  }
  return undefined;
}

function fromAnthropic(list: unknown[], system: unknown, where: string): ReplayMessage[] {
  const out: ReplayMessage[] = [];
  if (system !== undefined) {
    const s = AnthropicSystem.safeParse(system);
    if (!s.success)
      throw new ArefError(
        "INVALID_INPUT",
        `${where}: "system" is not a string or text blocks: ${formatIssues(s.error)}`,
        { hint: FORMAT_HINT },
      );
    const text = typeof s.data === "string" ? s.data : s.data.map((b) => b.text ?? "").join("\n");
    if (text.length > 0) out.push({ role: "system", content: text });
  }
  list.forEach((raw, i) => {
    const parsed = AnthropicMessage.safeParse(raw);
    if (!parsed.success) throw invalid(where, i, "Anthropic", parsed.error);
    const m = parsed.data;
    if (typeof m.content === "string") {
      out.push({ role: m.role, content: m.content });
      return;
    }
    if (m.role === "assistant") {
      // Thinking blocks of earlier turns are not part of the next request's input: left out.
      const text = m.content
        .filter((b) => b.type === "text")
        .map((b) => b.text ?? "")
        .join("\n");
      const calls = m.content
        .filter((b) => b.type === "tool_use")
        .map((b) => ({ id: b.id ?? null, name: b.name ?? "tool", arguments: JSON.stringify(b.input ?? {}) }));
      out.push({ role: "assistant", content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      return;
    }
    const texts: string[] = [];
    for (const b of m.content) {
      if (b.type === "tool_result") {
        const content =
          typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => c.text ?? `[${c.type}]`).join("\n");
        const call = b.tool_use_id ? findCall(out, b.tool_use_id) : undefined;
        out.push({
          role: "tool",
          content,
          tool_call_id: b.tool_use_id ?? null,
          ...(call ? { tool_name: call.name } : {}),
        });
      } else texts.push(b.text ?? `[${b.type}]`);
    }
    if (texts.length > 0) out.push({ role: "user", content: texts.join("\n") });
  });
  return out;
}

function isAnthropic(list: unknown[]): boolean {
  return list.some((m) => {
    const content = (m as { content?: unknown })?.content;
    return (
      Array.isArray(content) &&
      content.some((b) => ["tool_use", "tool_result"].includes((b as { type?: string })?.type ?? ""))
    );
  });
}

/** A validated transcript entry as a replay message (the fields the replay reads). */
export function toReplay(entry: TranscriptEntry): ReplayMessage {
  const m: ReplayMessage = { role: entry.role, content: entry.content };
  if (entry.tool_name !== undefined) m.tool_name = entry.tool_name;
  if (entry.tool_call_id !== undefined) m.tool_call_id = entry.tool_call_id;
  if (entry.tool_calls !== undefined) m.tool_calls = entry.tool_calls;
  return m;
}

/**
 * Parses a transcript in any format `aref analyze` reads. JSONL errors carry the line number;
 * an unrecognised shape is an UNSUPPORTED error that lists the formats.
 */
export function parseReplayTranscript(text: string, where = "transcript"): ParsedReplay {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body.length === 0) throw new ArefError("INVALID_INPUT", `${where} is empty`, { hint: FORMAT_HINT });
  if (!body.startsWith("[") && !body.startsWith("{")) {
    throw new ArefError(
      "UNSUPPORTED",
      `unknown transcript format in ${where}: it starts with ${JSON.stringify(body.slice(0, 12))}, not JSON`,
      { hint: FORMAT_HINT },
    );
  }
  // One JSON document (array or object), or JSONL?
  let whole: unknown;
  let isWhole = false;
  try {
    whole = JSON.parse(body);
    isWhole = true;
  } catch {
    isWhole = false;
  }
  if (isWhole && !(body.startsWith("{") && !body.trimEnd().includes("\n") && isMessageObject(whole))) {
    let list: unknown = whole;
    let system: unknown;
    if (
      !Array.isArray(whole) &&
      typeof whole === "object" &&
      whole !== null &&
      Array.isArray((whole as { messages?: unknown }).messages)
    ) {
      list = (whole as { messages: unknown[] }).messages;
      system = (whole as { system?: unknown }).system;
    }
    if (!Array.isArray(list)) {
      throw new ArefError(
        "UNSUPPORTED",
        `unknown transcript format in ${where}: a JSON object without a "messages" array`,
        { hint: FORMAT_HINT },
      );
    }
    if (system !== undefined || isAnthropic(list))
      return { format: "anthropic", messages: fromAnthropic(list, system, where) };
    return { format: "openai", messages: fromOpenAi(list, where) };
  }
  if (body.startsWith("[")) {
    try {
      JSON.parse(body);
    } catch (error) {
      throw new ArefError("INVALID_INPUT", `${where} is not valid JSON: ${(error as Error).message}`, {
        hint: FORMAT_HINT,
      });
    }
  }
  const normalized = normalizeTrajectoryLines(text, where);
  const parsed = parseTranscript(normalized.text, { format: "jsonl", where });
  const project = parsed.lines.some((l) => "type" in l.raw || "details" in l.raw || "id" in l.raw || "ts" in l.raw);
  const entries = parsed.lines.map((l) => l.entry);
  return {
    format: project ? "project-jsonl" : "trajectory-jsonl",
    messages: entries.map(toReplay),
    ...(project ? { entries } : {}),
    ...(normalized.warnings.length > 0 ? { warnings: normalized.warnings } : {}),
  };
}

const KNOWN_ROLES = new Set(["system", "user", "assistant", "tool"]);

/**
 * Trajectory lines in shapes other agents write: a role this format does not name (observation,
 * function, environment, …) is replayed as a user turn (the assembler treats every message by
 * size and position, not by role) with a warning; structured content (an array or object of
 * blocks) is replayed as its JSON text, so it is counted and stored like any content. Project
 * transcript lines (with type/details/id/ts) and malformed lines are left to the strict parser.
 */
function normalizeTrajectoryLines(text: string, where: string): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  const unknown = new Map<string, number>();
  let structured = 0;
  const lines = text.split("\n").map((line) => {
    if (line.trim().length === 0) return line;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return line;
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return line;
    const m = raw as Record<string, unknown>;
    if ("type" in m || "details" in m || "id" in m || "ts" in m) return line;
    let changed = false;
    if (typeof m.role === "string" && !KNOWN_ROLES.has(m.role)) {
      unknown.set(m.role, (unknown.get(m.role) ?? 0) + 1);
      m.role = m.role === "developer" ? "system" : m.role === "function" ? "tool" : "user";
      changed = true;
    }
    if (m.content !== undefined && m.content !== null && typeof m.content !== "string") {
      m.content = JSON.stringify(m.content);
      structured++;
      changed = true;
    } else if (m.content === null) {
      m.content = "";
      changed = true;
    }
    return changed ? JSON.stringify(m) : line;
  });
  for (const [role, n] of unknown)
    warnings.push(
      `${where}: ${n} message(s) with the unknown role ${JSON.stringify(role)} replayed as ${role === "developer" ? "system" : role === "function" ? "tool" : "user"} turns`,
    );
  if (structured > 0)
    warnings.push(`${where}: ${structured} message(s) with structured content replayed as their JSON text`);
  return { text: lines.join("\n"), warnings };
}

function isMessageObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "role" in value;
}
