// Types of the shared bench harness (harness.mjs is plain JS).
export interface HarnessRow {
  name: string;
  opsPerSec: number;
  meanMs: number;
  p99Ms: number;
  ratio: number;
  error?: string;
}
/** One line describing the machine. */
export function machine(): string;
/** Markdown table of rows. */
export function table(rows: HarnessRow[]): string;
export function compare(options: {
  title: string;
  cases: Record<string, () => unknown>;
  baseline?: string;
  time?: number;
  warmupTime?: number;
  setup?: () => unknown;
  teardown?: () => unknown;
}): Promise<HarnessRow[]>;
