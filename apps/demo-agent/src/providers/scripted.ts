import type { ModelMessage, ToolDefinition } from "@artifact-refs/context";
import type { ModelProvider, ProviderReply, ToolCallRequest } from "./types.js";
import { parseArguments } from "./types.js";

const REF_RE = /art:[0-9a-f]{12,64}/g;
/** The line the agent loop injects with the references it resolved from the user's words. */
export const REFERENCED_PREFIX = "Referenced artifacts (resolved from the user's words):";

interface Observation {
  tool: string;
  args: Record<string, unknown>;
  content: string;
}

/** The user's latest message and what the tools answered since (as the prompt shows them). */
function readTurn(messages: ModelMessage[]): { task: string; observations: Observation[]; injected: string } {
  let start = messages.length - 1;
  while (start >= 0 && messages[start]!.role !== "user") start--;
  const task = start >= 0 ? messages[start]!.content : "";
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const observations: Observation[] = [];
  for (const m of messages.slice(start + 1)) {
    for (const c of m.tool_calls ?? []) calls.set(c.id ?? "", { name: c.name, args: parseArguments(c.arguments) });
    if (m.role === "tool") {
      const call = calls.get(m.tool_call_id ?? "");
      observations.push({ tool: call?.name ?? m.name ?? "unknown", args: call?.args ?? {}, content: m.content });
    }
  }
  // The runtime's note of what the user's words refer to (resolved references), injected for this turn.
  const injected = messages
    .filter((m) => m.role === "system")
    .flatMap((m) => m.content.split("\n").filter((line) => line.startsWith(REFERENCED_PREFIX)))
    .join("\n");
  return { task, observations, injected };
}

const refsIn = (text: string) => [...new Set(text.match(REF_RE) ?? [])];

let counter = 0;
const call = (name: string, args: Record<string, unknown>): ProviderReply => ({
  text: "",
  toolCalls: [{ id: `scripted_${++counter}`, name, arguments: args } satisfies ToolCallRequest],
});
const answer = (text: string): ProviderReply => ({ text, toolCalls: [] });

/** First lines of a fetched answer that look like headings or results, for the final answer. */
function gist(text: string, pattern: RegExp, max: number): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => pattern.test(l))
    .slice(0, max);
}

/** The lines of a fetched slice without the selector's `N:` line numbers and `--` gap markers. */
function plainLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => l !== "--")
    .map((l) => l.replace(/^\d+[:-]/, ""));
}

/** Section titles (Markdown headings, levels 1-3) of a fetched slice. */
export function sectionsOf(text: string): string[] {
  return plainLines(text)
    .map((l) => /^#{1,3}\s+(.+?)\s*#*$/.exec(l.trim())?.[1])
    .filter((t): t is string => t !== undefined);
}

/** Failing test names and the count lines of a fetched test-run slice (vitest/jest style output). */
export function testOutcome(text: string): { failing: string[]; counts: string[] } {
  const failing = new Set<string>();
  const counts: string[] = [];
  for (const raw of plainLines(text)) {
    const line = raw.trim();
    const failed = /^(?:FAIL|×|✗|✕)\s+(.+?)(?:\s+\d+\s?ms)?$/.exec(line)?.[1];
    if (failed) failing.add(failed.replace(/\s+\[.*\]$/, ""));
    else if (/^(Test Files|Tests)\s/.test(line)) counts.push(line.replace(/\s+/g, " "));
  }
  return { failing: [...failing], counts };
}

/** One line quoting a test run: its counts and every failing test by name (or that none failed). */
function quoteTestRun(text: string): string {
  const { failing, counts } = testOutcome(text);
  const failures = failing.length ? `failing: ${failing.map((f) => `"${f}"`).join(", ")}` : "no failing test";
  return `${counts.length ? counts.join("; ") : "no count line in the slice"}; ${failures}`;
}

/** The label the runtime gave a referenced ref (`art:… (read_file README.md; …)`), or the ref. */
function labelOf(ref: string, injected: string): string {
  return new RegExp(`${ref} \\((\\S+) ([^;)]*)`).exec(injected)?.[2]?.trim() || ref;
}

/** The text of an artifacts_get answer (its JSON `text` field), or the raw content. */
function fetchedText(content: string): string {
  try {
    const parsed = JSON.parse(content) as { text?: unknown };
    if (typeof parsed.text === "string") return parsed.text;
  } catch {
    /* not JSON */
  }
  return content;
}

/**
 * The offline, deterministic default model: a scripted policy, not an LLM. It reads the
 * user's request and what its tool calls returned so far (as the assembled prompt shows
 * them: references, summaries, bounded fetches) and picks the next tool call, or answers.
 */
export class ScriptedProvider implements ModelProvider {
  readonly kind = "scripted";
  readonly label = "scripted policy (offline, deterministic; not an LLM)";
  readonly promptCaching = false;

  async complete({ messages, tools }: { messages: ModelMessage[]; tools: ToolDefinition[] }): Promise<ProviderReply> {
    const has = (name: string) => tools.some((t) => t.name === name);
    const { task, observations, injected } = readTurn(messages);
    const lower = task.toLowerCase();
    const last = observations[observations.length - 1];
    const fetches = observations.filter((o) => o.tool === "artifacts_get");

    // Follow-ups that refer back to earlier results: the runtime resolved the words to
    // references and injected them; fetch a bounded slice of each, then answer from it.
    const referenced = refsIn(injected);
    if (
      referenced.length > 0 &&
      /just|earlier|before|what did|compare|summar|the two|that|again/.test(lower) &&
      has("artifacts_get")
    ) {
      const comparing = /compare|two|both/.test(lower);
      const wanted = comparing ? referenced.slice(0, 2) : referenced.slice(0, 1);
      const next = wanted.find((ref) => !fetches.some((f) => f.args.ref === ref));
      const isTestRun = (ref: string) => new RegExp(`${ref}[^\\n]*(run_command|test)`, "i").test(injected);
      if (next) {
        return call("artifacts_get", {
          ref: next,
          selector: isTestRun(next)
            ? { mode: "grep", pattern: "Test Files|Tests |FAIL|×|✗|passed|failed", maxMatches: 24, maxChars: 1_500 }
            : comparing
              ? { mode: "grep", pattern: "^#{1,3} ", maxMatches: 40, maxChars: 1_500 }
              : { mode: "headtail", head: 25, tail: 0, maxChars: 1_500 },
        });
      }
      if (comparing && fetches.length >= 2) {
        // Quote the sections each one has, then what they share and what only one has.
        const [a, b] = fetches.map((f) => ({
          name: labelOf(String(f.args.ref), injected),
          ref: String(f.args.ref),
          sections: sectionsOf(fetchedText(f.content)),
        })) as [{ name: string; ref: string; sections: string[] }, { name: string; ref: string; sections: string[] }];
        const key = (t: string) => t.toLowerCase();
        const inB = new Set(b.sections.map(key));
        const inA = new Set(a.sections.map(key));
        const list = (xs: string[]) => (xs.length ? xs.map((x) => `"${x}"`).join(", ") : "none");
        return answer(
          [
            "Comparison (from bounded artifacts_get fetches of their section headings):",
            `${a.name} (${a.ref}) sections: ${list(a.sections)}`,
            `${b.name} (${b.ref}) sections: ${list(b.sections)}`,
            `in both: ${list(a.sections.filter((t) => inB.has(key(t))))}`,
            `only in ${a.name}: ${list(a.sections.filter((t) => !inB.has(key(t))))}`,
            `only in ${b.name}: ${list(b.sections.filter((t) => !inA.has(key(t))))}`,
          ].join("\n"),
        );
      }
      const parts = fetches.map((f) => {
        const ref = String(f.args.ref);
        const text = fetchedText(f.content);
        if (isTestRun(ref)) return `${ref}: ${quoteTestRun(text)}`;
        const lines = gist(text, /^(#{1,3} |Test Files|Tests |FAIL|✓|×)/, 6);
        // The first sentence of prose under the headings: what the document says it is.
        const prose = plainLines(text).find((l) => /^[A-Za-z`*]/.test(l.trim()) && l.trim().length > 20);
        const quoted = [...lines, ...(prose ? [`"${prose.trim().replace(/\s+/g, " ").slice(0, 240)}"`] : [])];
        return `${ref}: ${quoted.length ? quoted.join(" | ") : text.split("\n").slice(0, 3).join(" ")}`;
      });
      const verb = /compare/.test(lower) ? "Comparison" : /test/.test(lower) ? "The test run said" : "Summary";
      return answer(`${verb} (from bounded artifacts_get fetches):\n${parts.join("\n")}`);
    }

    // Fresh requests: pick the tool from the words, then read a bounded slice of a stashed result.
    if (!last) {
      const path = /(?:load|read|open)\b.*?([\w./-]+\.(?:md|ts|json|txt|log|yaml))/i.exec(task)?.[1];
      if (path && has("read_file")) return call("read_file", { path });
      const dir = /\blist\b.*?(?:in|of|under)?\s+([\w./-]+\/?)\s*$/i.exec(task.replace(/[.?!]$/, ""))?.[1];
      if (/\blist\b/.test(lower) && has("list_files")) {
        return call("list_files", {
          path: dir && !/^(the|files)$/.test(dir) ? dir : ".",
          ...(/\b(every|all|recursive)/.test(lower) ? { recursive: true } : {}),
        });
      }
      const cmd = /`([^`]+)`/.exec(task)?.[1];
      if (/\brun\b/.test(lower) && cmd && has("run_command")) return call("run_command", { command: cmd });
      const pattern = /(?:find|grep|search)\b.*?"([^"]+)"(?:.*?\bin\s+([\w./-]+))?/i.exec(task);
      if (pattern && has("grep")) return call("grep", { pattern: pattern[1], path: pattern[2] ?? "." });
      return answer("I can only read files, list directories, grep and run commands in this offline demo.");
    }

    const stashed = refsIn(last.content)[0];
    if (last.tool !== "artifacts_get" && stashed && has("artifacts_get")) {
      const selector =
        last.tool === "run_command"
          ? { mode: "grep", pattern: "Test Files|Tests |FAIL|×|✗|passed|failed|error", maxMatches: 24, maxChars: 1_500 }
          : last.tool === "grep"
            ? { mode: "headtail", head: 15, tail: 0, maxChars: 1_500 }
            : { mode: "headtail", head: 20, tail: 5, maxChars: 1_500 };
      return call("artifacts_get", { ref: stashed, selector });
    }
    const source = observations.find((o) => o.tool !== "artifacts_get");
    const text = last.tool === "artifacts_get" ? fetchedText(last.content) : last.content;
    const lines = gist(text, /^(#{1,3} |Test Files|Tests |FAIL|\S+:\d+:)/, 6);
    const what = source ? `${source.tool}(${JSON.stringify(source.args)})` : "the tool";
    const quoted =
      source?.tool === "run_command" ? [quoteTestRun(text)] : lines.length ? lines : text.split("\n").slice(0, 4);
    return answer(`Done: ${what}.${stashed ? ` The full result is stored as ${stashed}.` : ""}\n${quoted.join("\n")}`);
  }
}
