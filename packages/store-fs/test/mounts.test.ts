import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "@artifact-refs/store/internal";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHILD, assertBuilt, spawnJson } from "./helpers.js";

// Real full and read-only file systems: a small tmpfs mounted in a private mount
// namespace (`unshare -m`, needs root, which these tests run as). The mount exists only
// inside the child's namespace and vanishes with it, so nothing leaks onto the machine.
async function inMountNamespace<T>(mountPoint: string, script: string, jobs: Record<string, unknown>[]): Promise<T[]> {
  const args = [
    "-m",
    "sh",
    "-ec",
    script,
    "sh",
    mountPoint,
    process.execPath,
    CHILD,
    ...jobs.map((j) => JSON.stringify(j)),
  ];
  const run = spawnJson<T>("unshare", args);
  run.go();
  const { lines, code, stderr } = await run.done;
  if (code !== 0) throw new Error(`unshare exited ${code}: ${stderr}`);
  return lines;
}

interface Attempt<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; message: string; hint?: string };
}

describe("fs store on a full or read-only file system", () => {
  let mountPoint: string;
  beforeAll(() => assertBuilt());
  afterEach(async () => rm(mountPoint, { recursive: true, force: true }));

  it("a full disk is an IO_ERROR that says so, and the failed write leaves no temp file", async () => {
    mountPoint = await mkdtemp(join(tmpdir(), "aref-full-"));
    const root = join(mountPoint, "store");
    const [result] = await inMountNamespace<
      Attempt<{ stored: number; error?: { code: string; message: string; hint: string }; leftovers: string[] }>
    >(mountPoint, 'mount -t tmpfs -o size=256k tmpfs "$1"; "$2" "$3" "$4"', [{ job: "fill", root, size: 16 * 1024 }]);
    expect(result!.ok, JSON.stringify(result!.error)).toBe(true);
    const { stored, error, leftovers } = result!.value!;
    expect(stored).toBeGreaterThan(0);
    expect(error?.code).toBe("IO_ERROR");
    expect(error?.message).toMatch(/no space left on the device/);
    expect(error?.message).toContain(root);
    expect(error?.hint).toMatch(/free disk space/);
    expect(leftovers).toEqual([]);
  });

  it("a read-only mount is READ_ONLY for writes and still readable", async () => {
    mountPoint = await mkdtemp(join(tmpdir(), "aref-ro-"));
    const root = join(mountPoint, "store");
    const text = "stored before the remount";
    const lines = await inMountNamespace<Attempt<{ id?: string; get?: Attempt<string>; put?: Attempt<unknown> }>>(
      mountPoint,
      'mount -t tmpfs -o size=1m tmpfs "$1"; "$2" "$3" "$4"; mount -o remount,ro "$1"; "$2" "$3" "$5"',
      [
        { job: "seed", root, text },
        { job: "readOnlyMount", root, existingId: sha256Hex(new TextEncoder().encode(text)) },
      ],
    );
    expect(lines.length).toBe(2);
    expect(lines[0]!.ok).toBe(true);
    const { get, put } = lines[1]!.value!;
    expect(get).toEqual({ ok: true, value: text });
    expect(put?.ok).toBe(false);
    expect(put?.error?.code).toBe("READ_ONLY");
    expect(put?.error?.message).toMatch(/mounted read-only/);
    expect(put?.error?.message).toContain(root);
  });
});
