import {
  ArefError,
  DEFAULT_FETCH_MAX_CHARS,
  FetchReceiptSchema,
  HARD_FETCH_MAX_CHARS,
  receiptName,
  toHandle,
  type Selector,
} from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatCount } from "../format.js";
import { REF_ARGUMENT_HELP, examples, sessionOf } from "./shared.js";

interface FetchOptions {
  session?: string;
  maxChars: string;
  head?: string;
  tail?: string;
  grep?: string;
  ignoreCase?: boolean;
  context?: string;
  maxMatches?: string;
  skip?: string;
  range?: string;
  offset?: string;
  jsonpath?: string;
}

/** Quotes a value for a POSIX shell when it needs it. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The `aref fetch` flags that ask for `selector` (to print the exact command for the next part). */
export function selectorFlags(selector: Selector): string {
  const flags: string[] = [];
  switch (selector.mode) {
    case "headtail":
      if (selector.head !== undefined) flags.push(`--head ${selector.head}`);
      if (selector.tail !== undefined) flags.push(`--tail ${selector.tail}`);
      break;
    case "range":
      flags.push(`--range ${selector.start}:${selector.end ?? ""}`);
      if (selector.offset !== undefined) flags.push(`--offset ${selector.offset}`);
      break;
    case "grep":
      flags.push(`--grep ${shellQuote(selector.pattern)}`);
      if (selector.ignoreCase) flags.push("--ignore-case");
      if (selector.context !== undefined) flags.push(`--context ${selector.context}`);
      if (selector.maxMatches !== undefined) flags.push(`--max-matches ${selector.maxMatches}`);
      if (selector.skip !== undefined) flags.push(`--skip ${selector.skip}`);
      break;
    case "jsonpath":
      flags.push(`--jsonpath ${shellQuote(selector.expr)}`);
      if (selector.skip !== undefined) flags.push(`--skip ${selector.skip}`);
      break;
  }
  if (selector.maxChars !== undefined && selector.maxChars !== DEFAULT_FETCH_MAX_CHARS) flags.push(`--max-chars ${selector.maxChars}`);
  return flags.join(" ");
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("fetch")
    .summary(`print a bounded slice of a text artifact (at most ${formatCount(DEFAULT_FETCH_MAX_CHARS)} chars by default)`)
    .description(
      `Print a bounded slice of a text artifact: never more than --max-chars characters (default ${formatCount(DEFAULT_FETCH_MAX_CHARS)}, at most ${formatCount(HARD_FETCH_MAX_CHARS)}). ` +
        "Choose one selector: --head/--tail (the default: head and tail with a marker for what is left out), --grep, --range or --jsonpath. " +
        "On stderr (or in the --json receipt) it says what was omitted and the exact flags that fetch the next part. Binary artifacts are refused: use `aref cat`.",
    )
    .argument("<ref>", REF_ARGUMENT_HELP)
    .option("--session <id>", "resolve the ref within this session and require its reference to be live")
    .option("--max-chars <n>", `cap on the characters printed (1-${formatCount(HARD_FETCH_MAX_CHARS)})`, String(DEFAULT_FETCH_MAX_CHARS))
    .option("--head <lines>", "headtail: the first N lines")
    .option("--tail <lines>", "headtail: the last N lines")
    .option("--grep <regex>", "lines matching a regular expression (RE2 syntax: linear time, no backreferences)")
    .option("-i, --ignore-case", "grep: ignore case")
    .option("--context <lines>", "grep: lines of context around each match (0-100)")
    .option("--max-matches <n>", "grep: at most N matches")
    .option("--skip <n>", "grep/jsonpath: skip the first N matches or results (paging)")
    .option("--range <A:B>", "lines A to B (1-based, inclusive); `A:` reads from line A on")
    .option("--offset <chars>", "range: start this many chars into the first line (pages through a very long line)")
    .option("--jsonpath <expr>", "JSON content: a JSONPath ($.items[0].id, RFC 9535) or a JSON Pointer (/items/0/id)")
    .addHelpText(
      "after",
      examples([
        ["aref fetch art:3f9b2a1c8e4d", `head and tail, at most ${formatCount(DEFAULT_FETCH_MAX_CHARS)} chars`],
        ["aref fetch art:3f9b2a1c8e4d --tail 50 --max-chars 2000", "the last 50 lines, at most 2,000 chars"],
        ["aref fetch art:3f9b2a1c8e4d --grep 'ERROR|FATAL' --context 2", "matching lines with two lines of context"],
        ["aref fetch art:3f9b2a1c8e4d --range 41:80", "lines 41 to 80"],
        ["aref fetch art:5c0ffee12345 --jsonpath '$.items[*].id'", "values from a JSON artifact"],
        ["aref fetch art:3f9b2a1c8e4d --json | jq .next", "the selector that returns the next part"],
      ]),
    )
    .action(async (ref: string, opts: FetchOptions, cmd: Command) => {
      const session = sessionOf(opts.session);
      const { applySelector, applySelectorToChunks, isBinaryBytes, parseSelectorFlags } = await import("@artifact-refs/resolve");
      const selector = parseSelectorFlags({
        head: opts.head,
        tail: opts.tail,
        grep: opts.grep,
        ignoreCase: opts.ignoreCase,
        context: opts.context,
        maxMatches: opts.maxMatches,
        skip: opts.skip,
        range: opts.range,
        offset: opts.offset,
        jsonpath: opts.jsonpath,
        maxChars: opts.maxChars,
      });
      const dangling = [
        ["--ignore-case", opts.ignoreCase, "grep"],
        ["--context", opts.context, "grep"],
        ["--max-matches", opts.maxMatches, "grep"],
        ["--skip", opts.skip, "grep/jsonpath"],
        ["--offset", opts.offset, "range"],
      ].filter(([, value, modes]) => value !== undefined && !(modes as string).split("/").includes(selector.mode));
      if (dangling.length > 0) {
        const [flag, , modes] = dangling[0]!;
        throw new ArefError("INVALID_SELECTOR", `${flag} applies to ${String(modes).replace("/", " and ")} only, and this fetch is ${selector.mode}`, {
          hint: `add the selector it belongs to (--${String(modes).split("/")[0]} …), or drop ${flag}`,
        });
      }
      const store = await ctx.openStore(cmd);
      const sessionOption = session === undefined ? {} : { session };
      const id = await store.resolve(ref, sessionOption);
      // A chunked artifact (over 512 KiB) is read chunk by chunk: only the chunks the selection needs.
      const chunked = await store.chunks(id, sessionOption);
      const bytes = chunked === undefined ? await store.get(id, sessionOption) : undefined;
      const shortRef = await ctx.shortRefOf(store, id, session);
      if (bytes === undefined ? chunked!.record.encoding === "binary" : isBinaryBytes(bytes)) {
        const size = bytes?.byteLength ?? chunked!.size;
        throw new ArefError("UNSUPPORTED", `${shortRef} is binary content (${size} bytes), and fetch returns text only`, {
          hint: `use \`aref cat ${shortRef} > file\` to get its bytes`,
          details: { artifact_id: id, size_bytes: size },
        });
      }
      const selection = bytes === undefined ? await applySelectorToChunks(chunked!, selector) : applySelector(bytes, selector);
      await ctx.emit(FetchReceiptSchema, { schema: receiptName("fetch"), handle: toHandle(id), short_ref: shortRef, ...selection }, async (r) => {
        await ctx.out(r.text);
        // On a terminal, end the line on stderr: stdout carries exactly the selected text, never more than the cap.
        if (ctx.io.stdout.isTTY === true && r.text !== "" && !r.text.endsWith("\n")) await ctx.err("\n");
        if (r.omitted !== undefined || r.truncated || r.next !== undefined) {
          const lines = [`aref: showed ${formatCount(r.chars)} of ${formatCount(r.total_chars)} chars (${formatCount(r.total_lines)} lines)`];
          if (r.omitted) lines.push(`omitted: ${r.omitted}`);
          if (r.next) lines.push(`next: aref fetch ${r.short_ref} ${selectorFlags(r.next)}${session ? ` --session ${session}` : ""}`);
          await ctx.err(`${lines.join("\n")}\n`);
        }
      });
    });
}
