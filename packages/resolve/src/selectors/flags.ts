import { ArefError, type Selector } from "@artifact-refs/schema";
import { parseSelector } from "./apply.js";

/** Command-line style selector flags (`aref fetch --grep RE --context 2 ...`), as strings or numbers. */
export interface SelectorFlags {
  head?: string | number | undefined;
  tail?: string | number | undefined;
  grep?: string | undefined;
  ignoreCase?: boolean | undefined;
  context?: string | number | undefined;
  maxMatches?: string | number | undefined;
  skip?: string | number | undefined;
  /** "A:B", "A:" or "A" (1-based lines, inclusive). */
  range?: string | undefined;
  offset?: string | number | undefined;
  jsonpath?: string | undefined;
  maxChars?: string | number | undefined;
}

/**
 * Turns CLI flags into one validated Selector. At most one of --grep, --range, --jsonpath
 * (and --head/--tail only with none of them); none of them means headtail.
 */
export function parseSelectorFlags(flags: SelectorFlags): Selector {
  const modes = [
    flags.grep !== undefined && "--grep",
    flags.range !== undefined && "--range",
    flags.jsonpath !== undefined && "--jsonpath",
  ].filter((m): m is string => typeof m === "string");
  const headTail = flags.head !== undefined || flags.tail !== undefined;
  if (modes.length > 1 || (modes.length === 1 && headTail)) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `choose one selector: got ${[...modes, ...(headTail ? ["--head/--tail"] : [])].join(" and ")}`,
      {
        hint: "use one of --head/--tail, --grep, --range or --jsonpath per fetch",
      },
    );
  }
  const maxChars = int(flags.maxChars, "--max-chars");
  const cap = maxChars === undefined ? {} : { maxChars };
  if (flags.grep !== undefined) {
    return parseSelector({
      mode: "grep",
      pattern: flags.grep,
      ...(flags.ignoreCase ? { ignoreCase: true } : {}),
      ...opt("context", int(flags.context, "--context")),
      ...opt("maxMatches", int(flags.maxMatches, "--max-matches")),
      ...opt("skip", int(flags.skip, "--skip")),
      ...cap,
    });
  }
  if (flags.range !== undefined) {
    const m = /^\s*(\d+)\s*(?:[:-]\s*(\d*)\s*)?$/.exec(flags.range);
    if (!m) {
      throw new ArefError(
        "INVALID_SELECTOR",
        `--range must be A:B, A: or A (1-based lines), got ${JSON.stringify(flags.range)}`,
        {
          hint: "e.g. --range 120:180",
        },
      );
    }
    return parseSelector({
      mode: "range",
      start: Number(m[1]),
      ...(m[2] ? { end: Number(m[2]) } : m[0].includes(":") || m[0].includes("-") ? {} : { end: Number(m[1]) }),
      ...opt("offset", int(flags.offset, "--offset")),
      ...cap,
    });
  }
  if (flags.jsonpath !== undefined) {
    return parseSelector({ mode: "jsonpath", expr: flags.jsonpath, ...opt("skip", int(flags.skip, "--skip")), ...cap });
  }
  return parseSelector({
    mode: "headtail",
    ...opt("head", int(flags.head, "--head")),
    ...opt("tail", int(flags.tail, "--tail")),
    ...cap,
  });
}

function opt<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function int(value: string | number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new ArefError("INVALID_SELECTOR", `${flag} must be a whole number, got ${JSON.stringify(value)}`, {
      hint: `e.g. ${flag} 20`,
    });
  }
  return n;
}
