/**
 * Evidence: the identifiers, paths and numbers an assistant message writes that first appeared
 * in an earlier tool/observation output (not in the system prompt or the task). A prompt that
 * shows them keeps the evidence the model acted on visible; one that points at a stored message
 * holding them keeps it reachable.
 */

/** Paths (a/b, ./x.py), dotted or snake_case or camelCase identifiers, names with digits, numbers of 3+ digits. */
const TERM =
  /(?:[\w.-]*\/[\w./-]*\w)|(?:\b[A-Za-z_][A-Za-z0-9_]*(?:[._][A-Za-z0-9_]+)+\b)|(?:\b[a-z]+[A-Z][A-Za-z0-9]*\b)|(?:\b[A-Za-z_]+\d+[A-Za-z0-9_]*\b)|(?:\b\d{3,}(?:\.\d+)?\b)/g;

/** The evidence-like terms of a text (at most 200 chars each, deduplicated). */
export function evidenceTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(TERM)) {
    const t = m[0];
    if (t.length >= 3 && t.length <= 200) out.add(t);
  }
  return out;
}

/** Where each term first appeared, message by message (fed in history order). */
export class FirstSeen {
  readonly #first = new Map<string, number>();
  add(index: number, text: string): void {
    for (const t of evidenceTerms(text)) if (!this.#first.has(t)) this.#first.set(t, index);
  }
  first(term: string): number | undefined {
    return this.#first.get(term);
  }
}

/** Counts of one series: evidence terms, how many the prompt shows, how many it can reach. */
export interface EvidenceCounts {
  terms: number;
  visible: number;
  reachable: number;
}

export function addCounts(a: EvidenceCounts, b: EvidenceCounts): EvidenceCounts {
  return { terms: a.terms + b.terms, visible: a.visible + b.visible, reachable: a.reachable + b.reachable };
}

export const ZERO_COUNTS: EvidenceCounts = Object.freeze({ terms: 0, visible: 0, reachable: 0 });
