import { ArefError } from "@artifact-refs/schema";

/** How an SDK's history items look to fitTurns. */
export interface TurnShape<T> {
  /** The item's size in the measure of the budget (e.g. chars of its JSON). */
  sizeOf(item: T): number;
  /** A tool output's text and tool name, or undefined for any other item. */
  toolOutput(item: T): { text: string; tool: string } | undefined;
  /** The same tool output item with this text instead. */
  withToolOutput(item: T, text: string): T;
  /** True for an item that starts a turn (a user message). */
  startsTurn(item: T): boolean;
}

/** One line that stands in for an older tool output, keeping the artifact refs it named. */
export function olderOutputStub(tool: string, text: string): string {
  const refs = [...new Set(text.match(/art:[0-9a-f]{12,64}/g) ?? [])];
  return `[older output of ${tool} left out to stay in budget${refs.length > 0 ? `; stored as ${refs.join(", ")}: call artifacts_get to read it` : ""}]`;
}

/**
 * Fits a history into `max` (with `fixed` already used by instructions and the like): older
 * tool outputs (never the latest) become one line that keeps their refs, then the oldest whole
 * turns (up to the next user message) are left out. The latest turn always stays whole; when it
 * alone is over the budget this throws BUDGET_EXCEEDED (fail closed). Returns the same array when
 * it already fits.
 */
export function fitTurns<T>(items: readonly T[], max: number, shape: TurnShape<T>, fixed = 0): readonly T[] {
  const out = [...items];
  const sizes = out.map((item) => shape.sizeOf(item));
  let total = fixed + sizes.reduce((a, b) => a + b + 1, 1);
  if (total <= max) return items;
  let last = -1;
  for (let i = out.length - 1; i >= 0 && last < 0; i--) if (shape.toolOutput(out[i]!) !== undefined) last = i;
  for (let i = 0; i < out.length && total > max; i++) {
    const output = i === last ? undefined : shape.toolOutput(out[i]!);
    if (output === undefined || output.text.length <= 200) continue;
    out[i] = shape.withToolOutput(out[i]!, olderOutputStub(output.tool, output.text));
    const size = shape.sizeOf(out[i]!);
    total += size - sizes[i]!;
    sizes[i] = size;
  }
  let from = 0;
  while (total > max) {
    let next = from + 1;
    while (next < out.length && !shape.startsTurn(out[next]!)) next++;
    if (next >= out.length) {
      throw new ArefError(
        "BUDGET_EXCEEDED",
        `the model input is ${total} chars with only the latest turn left, over the budget of ${max}`,
        {
          hint: "raise the budget, or lower the externalization thresholds so tool outputs are stored",
        },
      );
    }
    for (let i = from; i < next; i++) total -= sizes[i]! + 1;
    from = next;
  }
  return out.slice(from);
}

/** The default character budget of one model call's input, for the adapters that fit turns. */
export const DEFAULT_MAX_INPUT_CHARS = 48_000;

/**
 * An adapter's `maxInputChars` option, checked when the adapter is configured: the default when unset,
 * INVALID_INPUT (with the adapter's own `hint`) when it is not a positive whole number (NaN or Infinity
 * would let every input through).
 */
export function maxInputCharsOf(value: number | undefined, hint: string): number {
  const max = value ?? DEFAULT_MAX_INPUT_CHARS;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new ArefError("INVALID_INPUT", `maxInputChars must be a positive integer, got ${String(max)}`, { hint });
  return max;
}
