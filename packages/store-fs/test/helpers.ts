import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DriverFactory } from "@artifact-refs/store/testing";
import { FsDriver, type FsDriverOptions } from "@artifact-refs/store-fs";

/** A fresh store root under a fresh temp directory (the root itself is created by the driver). */
export async function tempRoot(): Promise<{ parent: string; root: string; cleanup: () => Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "aref-fs-"));
  return { parent, root: join(parent, "store"), cleanup: () => rm(parent, { recursive: true, force: true }) };
}

/** Contract harness: a driver on a fresh root; `reopen` is a second, independent FsDriver on the same root. */
export function fsFactory(options: Omit<FsDriverOptions, "root"> = {}): DriverFactory {
  return async () => {
    const { root, cleanup } = await tempRoot();
    return {
      driver: new FsDriver({ root, ...options }),
      reopen: async () => new FsDriver({ root, ...options }),
      cleanup,
    };
  };
}
