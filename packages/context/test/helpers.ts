import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";

export function memoryStore(maxBytes?: number): ArtifactStore {
  return new ArtifactStore({ driver: new MemoryDriver(), ...(maxBytes === undefined ? {} : { maxBytes }) });
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "aref-context-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Deterministic multi-line log text of about `chars` characters. */
export function bigLog(chars: number, seed = 1): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = 1; total < chars; i++) {
    const line = `${seed}:${i} ${i % 17 === 0 ? "ERROR" : "INFO"} worker-${(i * 7 + seed) % 13} handled request ${(i * 2654435761 + seed) % 100000} in ${(i * 31) % 997}ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

export const TRAJECTORY_DIR = sharedDataPath("trajectories");
export const TRAJECTORY_MORE_DIR = sharedDataPath("trajectories-more");
