import { applySelector } from "@artifact-refs/resolve";
import { isArefError, type Selection, type Selector } from "@artifact-refs/schema";

/** One selection, run in a pool thread (src/selection-pool.ts). */
export interface SelectionTask {
  text: string;
  selector: Selector;
  jsonPathWorkBudget: number;
}

/** A selection, or the error it raised in the shape `ArefError#toJSON` gives (classes do not cross threads). */
export type SelectionOutcome =
  | { ok: true; selection: Selection }
  | { ok: false; error: { code: string; message: string; hint?: string; details?: Record<string, unknown> } };

export default function select({ text, selector, jsonPathWorkBudget }: SelectionTask): SelectionOutcome {
  try {
    return { ok: true, selection: applySelector(text, selector, { jsonPathWorkBudget }) };
  } catch (error) {
    if (isArefError(error)) return { ok: false, error: error.toJSON() };
    return { ok: false, error: { code: "INTERNAL", message: (error as Error).message } };
  }
}
