import { readFileSync } from "node:fs";
import { sharedDataFiles, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";

/** ../shared/data/trajectories relative to the project root (read in place, never copied). */
export const TRAJECTORIES_DIR = `${sharedDataPath("trajectories")}/`;

/** [] when the data set is absent outside CI (the tests that read it are skipped). */
export function trajectoryFiles(): string[] {
  return sharedDataFiles("trajectories", ".jsonl").map((f) => `${TRAJECTORIES_DIR}${f}`);
}

/** Every message content of every trajectory (tool outputs, prompts, replies). */
export function trajectoryTexts(): string[] {
  const texts: string[] = [];
  for (const file of trajectoryFiles()) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      texts.push((JSON.parse(line) as { content: string }).content);
    }
  }
  return texts;
}

/**
 * A fixed sample of the trajectory messages for the cross-implementation checks: every
 * tenth message and every message with non-ASCII text, under 20,000 chars each (220
 * messages, about 320,000 chars of prose, code, logs and diffs). Counting all 2.8 million
 * chars with four encoders took 20-80 s per encoding on a loaded machine; the sample covers
 * the same kinds, and `pnpm bench` compares the implementations on every tool output.
 */
export function sampledTrajectoryTexts(): string[] {
  return trajectoryTexts().filter((t, i) => t.length < 20_000 && (i % 10 === 0 || /[^\x00-\x7f]/.test(t)));
}

/**
 * Timeout of the tests that load every encoder (seconds of WASM and rank-table loading each).
 * Not a speed assertion: generous so that a machine at load 20 with other suites running
 * beside it does not fail them; the tests themselves take a few seconds when the machine is idle.
 */
export const HEAVY_TEST_TIMEOUT_MS = 240_000;
