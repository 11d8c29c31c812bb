// Types of the shared bench harness (tooling/bench/harness.mjs is plain JS).
declare module "@artifact-refs/tooling/bench/harness" {
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
  }): Promise<HarnessRow[]>;
}
