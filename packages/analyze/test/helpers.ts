import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";

import { bigLog } from "@artifact-refs/tooling/testing/big-log";

export { bigLog };

/** A generated transcript: `reads` tool outputs of `size` characters (+997 per read; 0: short outputs only). */
export function transcript(reads: number, size: number): string {
  const messages: Array<Record<string, string>> = [
    { role: "system", content: "You are an agent." },
    { role: "user", content: "Find the failing request in the logs." },
  ];
  for (let i = 0; i < reads; i++) {
    messages.push({ role: "assistant", content: `cat app-${i}.log` });
    messages.push({ role: "tool", content: size ? bigLog(size + i * 997) : `ok ${i}`, tool_name: "bash" });
  }
  messages.push({ role: "assistant", content: "The failing request is 17." });
  return `${messages.map((m) => JSON.stringify(m)).join("\n")}\n`;
}

export function memoryStore(): ArtifactStore {
  return new ArtifactStore({ driver: new MemoryDriver() });
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "aref-analyze-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const TRAJECTORY_DIR = sharedDataPath("trajectories");
export const TRAJECTORY_MORE_DIR = sharedDataPath("trajectories-more");
