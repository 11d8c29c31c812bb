import { ArefError } from "@artifact-refs/schema";
import { encodeJson } from "./core.js";
import type { Driver } from "./driver.js";
import { LAYOUT_KEY, LAYOUT_VERSION } from "./layout.js";

/**
 * What the store's `layout.json` says: its layout version and the store-wide gc grace floor
 * (`gc_grace_floor_ms`, absent = 0). Every gc on the store refuses a grace below the floor, and
 * writers rely on it to skip the refresh after a reference write (see ArtifactStore.put).
 */
export interface StoreLayout {
  gcGraceFloorMs: number;
}

/** How much shorter than the floor a put must be to skip its refresh: backend time precision (S3: whole seconds) plus 1 s of slack. */
export const FLOOR_MARGIN_MS = 2_000;

/**
 * Reads the layout marker; with `create` (a first write), writes it first when missing, recording
 * `floorMs`. Undefined when the store has no marker yet and none was written. A store written by an
 * unknown layout version is refused (UNSUPPORTED); a damaged marker is CORRUPT_METADATA.
 */
export async function readLayoutMarker(
  driver: Driver,
  create: { floorMs: number } | undefined,
): Promise<StoreLayout | undefined> {
  let raw = await driver.get(LAYOUT_KEY);
  if (raw === undefined && create !== undefined) {
    const floor = create.floorMs > 0 ? { gc_grace_floor_ms: create.floorMs } : {};
    await driver.putIfAbsent(LAYOUT_KEY, encodeJson({ layout: LAYOUT_VERSION, ...floor }));
    raw = await driver.get(LAYOUT_KEY);
  }
  if (raw === undefined) return undefined;
  let parsed: { layout?: unknown; gc_grace_floor_ms?: unknown } | null | undefined;
  try {
    parsed = JSON.parse(new TextDecoder().decode(raw)) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const layout = parsed?.layout;
  const floor = parsed?.gc_grace_floor_ms ?? 0;
  if (typeof layout !== "number" || !(Number.isSafeInteger(floor) && (floor as number) >= 0)) {
    throw new ArefError(
      "CORRUPT_METADATA",
      `the store's ${LAYOUT_KEY} at ${driver.location} is damaged: expected {"layout": ${LAYOUT_VERSION}} (and an optional "gc_grace_floor_ms": a whole number of milliseconds >= 0)`,
      {
        hint: `if this is an artifact-refs store, rewrite it: echo '{"layout":${LAYOUT_VERSION}}' > ${LAYOUT_KEY} in the store's root; else point --store at another location`,
      },
    );
  }
  if (layout !== LAYOUT_VERSION) {
    throw new ArefError(
      "UNSUPPORTED",
      `the store at ${driver.location} has layout ${JSON.stringify(layout)}, this version reads layout ${LAYOUT_VERSION}`,
      {
        hint: "use the artifact-refs version that wrote it, or point --store at another location",
      },
    );
  }
  return { gcGraceFloorMs: floor as number };
}

/** Refuses a gc grace below the store's floor (a put that finished within the floor did not refresh its blob). */
export function assertGraceAboveFloor(graceMs: number, layout: StoreLayout | undefined, location: string): void {
  const floor = layout?.gcGraceFloorMs ?? 0;
  if (graceMs >= floor) return;
  throw new ArefError(
    "INVALID_INPUT",
    `gc grace ${graceMs} ms is below this store's grace floor of ${floor} ms (gc_grace_floor_ms in ${LAYOUT_KEY} at ${location})`,
    {
      hint: `run gc with a grace of at least ${floor} ms: writers of this store rely on it to keep content they are still referencing`,
      details: { grace_ms: graceMs, floor_ms: floor },
    },
  );
}
