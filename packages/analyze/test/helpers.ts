import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";

export { bigLog } from "@artifact-refs/tooling/testing/big-log";

export function memoryStore(): ArtifactStore {
  return new ArtifactStore({ driver: new MemoryDriver() });
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "aref-analyze-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const TRAJECTORY_DIR = sharedDataPath("trajectories");
export const TRAJECTORY_MORE_DIR = sharedDataPath("trajectories-more");
