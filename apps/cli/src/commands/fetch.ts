import {
  ArefError,
  DEFAULT_FETCH_MAX_CHARS,
  FetchReceiptSchema,
  HARD_FETCH_MAX_CHARS,
  receiptName,
  type SelectorField,
  selectorFieldModes,
  toHandle,
  type Selector,
} from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { EXIT } from "../exit-codes.js";
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
  pretty?: boolean;
}

/** The flags that modify a selector of some modes only, and the selector field each sets. */
const MODIFIER_FLAGS = [
  ["--ignore-case", "ignoreCase"],
  ["--context", "context"],
  ["--max-matches", "maxMatches"],
  ["--skip", "skip"],
  ["--offset", "offset"],
] as const satisfies ReadonlyArray<readonly [string, SelectorField & keyof FetchOptions]>;

/** The CLI form of each selector, for the hint of a selector error (the schema's hint shows the JSON form). */
const CLI_SELECTOR_FORM: Record<Selector["mode"], string> = {
  headtail: "--head N and/or --tail N (whole lines from each end)",
  range:
    "--range A:B takes 1-based line numbers with A <= B (--range 10:12 is lines 10 to 12; --range 12: reads from line 12 to the end)",
  grep: "--grep <regex> (RE2 syntax), with --context 0-100, --max-matches N, --skip N, -i",
  jsonpath: "--jsonpath '$.items[*].id' (RFC 9535) or a JSON Pointer (/items/0/id), with --skip N",
};

/**
 * JSONPath results as compact JSON lines (one value per line); `pretty` indents them instead.
 * Text that is not whole JSON (a value cut at the cap) is printed as it is.
 */
function jsonLines(text: string, pretty: boolean): string {
  const many = /^\[\n([\s\S]*)\n\]$/.exec(text);
  try {
    if (pretty) return JSON.stringify(JSON.parse(text), null, 2);
    return many
      ? many[1]!
          .split(",\n")
          .map((v) => JSON.stringify(JSON.parse(v)))
          .join("\n")
      : JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
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
  if (selector.maxChars !== undefined && selector.maxChars !== DEFAULT_FETCH_MAX_CHARS)
    flags.push(`--max-chars ${selector.maxChars}`);
  return flags.join(" ");
}

/** Runs the selector flag parser; a selector error gets the CLI form of the flags as its hint. */
function withCliHint(parse: () => Selector, opts: FetchOptions): Selector {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ArefError) || error.code !== "INVALID_SELECTOR") throw error;
    const mode: Selector["mode"] =
      opts.range !== undefined
        ? "range"
        : opts.grep !== undefined
          ? "grep"
          : opts.jsonpath !== undefined
            ? "jsonpath"
            : "headtail";
    throw new ArefError("INVALID_SELECTOR", error.message, {
      hint: CLI_SELECTOR_FORM[mode],
      ...(error.details === undefined ? {} : { details: error.details }),
    });
  }
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("fetch")
    .summary(
      `print a bounded slice of a text artifact (at most ${formatCount(DEFAULT_FETCH_MAX_CHARS)} chars by default)`,
    )
    .description(
      `Print a bounded slice of a text artifact: never more than --max-chars characters (default ${formatCount(DEFAULT_FETCH_MAX_CHARS)}, at most ${formatCount(HARD_FETCH_MAX_CHARS)}). ` +
        "Choose one selector: --head/--tail (the default: head and tail with a marker for what is left out), --grep, --range or --jsonpath. " +
        "On stderr (or in the --json receipt) it says what was omitted and the exact flags that fetch the next part. Binary artifacts are refused: use `aref cat`.",
    )
    .argument("<ref>", REF_ARGUMENT_HELP)
    .option("--session <id>", "resolve the ref within this session and require its reference to be live")
    .option(
      "--max-chars <n>",
      `cap on the characters printed (1-${formatCount(HARD_FETCH_MAX_CHARS)})`,
      String(DEFAULT_FETCH_MAX_CHARS),
    )
    .option("--head <lines>", "headtail: the first N lines")
    .option("--tail <lines>", "headtail: the last N lines")
    .option("--grep <regex>", "lines matching a regular expression (RE2 syntax: linear time, no backreferences)")
    .option("-i, --ignore-case", "grep: ignore case")
    .option("--context <lines>", "grep: lines of context around each match (0-100)")
    .option("--max-matches <n>", "grep: at most N matches")
    .option("--skip <n>", "grep/jsonpath: skip the first N matches or results (paging)")
    .option("--range <A:B>", "lines A to B (1-based, inclusive); `A:` reads from line A on")
    .option("--offset <chars>", "range: start this many chars into the first line (pages through a very long line)")
    .option(
      "--jsonpath <expr>",
      "JSON content: a JSONPath ($.items[0].id, RFC 9535) or a JSON Pointer (/items/0/id); prints one compact JSON value per line",
    )
    .option("--pretty", "jsonpath: print the results as indented JSON")
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
      const { applySelector, applySelectorToChunks, isBinaryBytes, parseSelectorFlags } = await import(
        "@artifact-refs/resolve"
      );
      const selector = withCliHint(
        () =>
          parseSelectorFlags({
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
          }),
        opts,
      );
      // A modifier flag of another mode is an error, never ignored (the modes each field belongs to come from the selector schema).
      const dangling = MODIFIER_FLAGS.map(
        ([flag, field]) => [flag, opts[field], selectorFieldModes(field)] as const,
      ).filter(([, value, modes]) => value !== undefined && !modes.includes(selector.mode));
      if (dangling.length > 0) {
        const [flag, , modes] = dangling[0]!;
        throw new ArefError(
          "INVALID_SELECTOR",
          `${flag} applies to ${modes.join(" and ")} only, and this fetch is ${selector.mode}`,
          {
            hint: `add the selector it belongs to (--${modes[0]} …), or drop ${flag}`,
          },
        );
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
        throw new ArefError(
          "UNSUPPORTED",
          `${shortRef} is binary content (${size} bytes), and fetch returns text only`,
          {
            hint: `use \`aref cat ${shortRef} > file\` to get its bytes`,
            details: { artifact_id: id, size_bytes: size },
          },
        );
      }
      const selection =
        bytes === undefined ? await applySelectorToChunks(chunked!, selector) : applySelector(bytes, selector);
      await ctx.emit(
        FetchReceiptSchema,
        { schema: receiptName("fetch"), handle: toHandle(id), short_ref: shortRef, ...selection },
        async (r) => {
          const text = selector.mode === "jsonpath" && r.text !== "" ? jsonLines(r.text, opts.pretty === true) : r.text;
          // Text ends with a newline, on a terminal or in a pipe (`aref cat` gives the exact bytes).
          await ctx.out(text === "" || text.endsWith("\n") ? text : `${text}\n`);
          if (r.omitted !== undefined || r.truncated || r.next !== undefined) {
            const lines = [
              `aref: showed ${formatCount(r.chars)} of ${formatCount(r.total_chars)} chars (${formatCount(r.total_lines)} lines)`,
            ];
            if (r.omitted) lines.push(`omitted: ${r.omitted}`);
            if (r.next)
              lines.push(
                `next: aref fetch ${r.short_ref} ${selectorFlags(r.next)}${session ? ` --session ${session}` : ""}`,
              );
            await ctx.err(`${lines.join("\n")}\n`);
          }
        },
      );
      // No match is not silence: a note on stderr and exit 1, like grep.
      const found =
        selector.mode === "grep"
          ? selection.stats?.matches
          : selector.mode === "jsonpath"
            ? selection.stats?.results
            : undefined;
      if (found === 0) {
        const what =
          selector.mode === "grep"
            ? `--grep ${shellQuote(selector.pattern)}`
            : selector.mode === "jsonpath"
              ? `--jsonpath ${shellQuote(selector.expr)}`
              : "";
        await ctx.note(`aref: no match for ${what} in ${shortRef}\n`);
        ctx.exitCode = EXIT.NO_MATCH;
      }
    });
}
