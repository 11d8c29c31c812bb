import { ArefError, parseWith } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver, type ArtifactStoreOptions, type Driver } from "@artifact-refs/store";
import { StoreSpecSchema, parseStoreSpec, type StoreSpec } from "./spec.js";

const memoryStores = new Map<string, MemoryDriver>();

/**
 * Opens the driver a spec names. `memory:<name>` drivers are shared within the process
 * by name. The S3 driver is loaded only when asked for, so fs users never load the AWS SDK.
 */
export async function openDriver(spec: string | StoreSpec): Promise<Driver> {
  const parsed =
    typeof spec === "string" ? parseStoreSpec(spec) : parseWith(StoreSpecSchema, spec, "store spec", "CONFIG_INVALID");
  switch (parsed.kind) {
    case "memory": {
      if (parsed.name === "") return new MemoryDriver();
      let driver = memoryStores.get(parsed.name);
      if (!driver) memoryStores.set(parsed.name, (driver = new MemoryDriver({ name: parsed.name })));
      return driver;
    }
    case "fs": {
      const { FsDriver } = await import("@artifact-refs/store-fs");
      return new FsDriver({ root: parsed.root, gzip: parsed.gzip });
    }
    case "s3": {
      let mod: typeof import("@artifact-refs/store-s3");
      try {
        mod = await import("@artifact-refs/store-s3");
      } catch (cause) {
        throw new ArefError("UNSUPPORTED", "the S3 store needs the @artifact-refs/store-s3 package", {
          hint: "install it: pnpm add @artifact-refs/store-s3",
          cause,
        });
      }
      return new mod.S3Driver({
        bucket: parsed.bucket,
        prefix: parsed.prefix,
        ...(parsed.endpoint === undefined ? {} : { endpoint: parsed.endpoint }),
        ...(parsed.region === undefined ? {} : { region: parsed.region }),
        ...(parsed.forcePathStyle === undefined ? {} : { forcePathStyle: parsed.forcePathStyle }),
        ...(parsed.conditionalWrites === undefined ? {} : { conditionalWrites: parsed.conditionalWrites }),
      });
    }
  }
}

/** Opens an ArtifactStore on the backend a spec names (`?maxBytes=` sets its per-artifact cap, `?gcGraceFloorMs=` the grace floor of a store it creates). */
export async function openStore(
  spec: string | StoreSpec,
  options: Omit<ArtifactStoreOptions, "driver"> = {},
): Promise<ArtifactStore> {
  const parsed =
    typeof spec === "string" ? parseStoreSpec(spec) : parseWith(StoreSpecSchema, spec, "store spec", "CONFIG_INVALID");
  // The spec's ?maxBytes= is the store's cap unless the caller sets one (a --max-bytes flag).
  const maxBytes = options.maxBytes ?? (parsed.kind === "memory" ? undefined : parsed.maxBytes);
  // Likewise ?gcGraceFloorMs= (recorded in layout.json when this opens a new store).
  const gcGraceFloorMs = options.gcGraceFloorMs ?? (parsed.kind === "memory" ? undefined : parsed.gcGraceFloorMs);
  return new ArtifactStore({
    ...options,
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(gcGraceFloorMs === undefined ? {} : { gcGraceFloorMs }),
    driver: await openDriver(parsed),
  });
}
