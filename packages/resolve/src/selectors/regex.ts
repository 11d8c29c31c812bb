import { ArefError } from "@artifact-refs/schema";
import { RE2JS } from "re2js";

/** A compiled untrusted regex: linear-time RE2 semantics, no backtracking. */
export interface SafeRegex {
  /** True when `line` holds a match (DFA fast path). */
  test(line: string): boolean;
  /** Index of the first match in `line`, or -1. */
  search(line: string): number;
  readonly source: string;
}

const UNSUPPORTED_SYNTAX: Array<[RegExp, string]> = [
  [/\\[1-9]/, "backreferences (\\1)"],
  [/\(\?[=!]/, "lookahead ((?=…), (?!…))"],
  [/\(\?<[=!]/, "lookbehind ((?<=…), (?<!…))"],
  [/\\k</, "named backreferences (\\k<name>)"],
  [/\(\?>/, "atomic groups ((?>…))"],
  [/[*+?}][+]/, "possessive quantifiers (a*+)"],
];

/**
 * Compiles a regex from an untrusted source (a model, a user) with RE2JS, a linear-time
 * engine: a pattern like (a+)+$ runs in time linear in the input, never exponential.
 * Features RE2 lacks (backreferences, lookaround) are an INVALID_SELECTOR error that says so.
 */
export function compileSafeRegex(pattern: string, ignoreCase = false): SafeRegex {
  if (pattern.length === 0) {
    throw new ArefError("INVALID_SELECTOR", "the grep pattern is empty", {
      hint: "give a regular expression, e.g. error|warn",
    });
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const feature = UNSUPPORTED_SYNTAX.find(([probe]) => probe.test(pattern))?.[1];
    const why = error instanceof Error ? error.message : String(error);
    throw new ArefError(
      "INVALID_SELECTOR",
      feature
        ? `the grep pattern uses ${feature}, which the linear-time regex engine (RE2) does not support: ${why}`
        : `the grep pattern is not a valid regular expression: ${why}`,
      {
        hint: feature
          ? "rewrite the pattern without that feature (RE2 syntax: alternation, classes, repeats, groups), or grep for a simpler part"
          : "check brackets and escapes; RE2 syntax is close to JavaScript's (escape literal ( [ { . * + ? with \\)",
        details: { pattern },
        cause: error,
      },
    );
  }
  return {
    source: pattern,
    test: (line: string) => re.test(line),
    search(line: string): number {
      const m = re.matcher(line);
      return m.find() ? m.start() : -1;
    },
  };
}
