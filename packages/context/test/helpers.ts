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

export { bigLog } from "@artifact-refs/tooling/testing/big-log";

export const TRAJECTORY_DIR = sharedDataPath("trajectories");
export const TRAJECTORY_MORE_DIR = sharedDataPath("trajectories-more");
