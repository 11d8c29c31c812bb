import { createHash } from "node:crypto";
import { lstat, readFile, readdir, readlink } from "node:fs/promises";
import { join } from "node:path";

/** Every entry under `dir` (files, links, directories), relative, '/'-separated, with a fingerprint. */
export async function snapshot(
  dir: string,
  skip: (rel: string) => boolean = () => false,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const entry of await readdir(abs, { withFileTypes: true })) {
      const r = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (skip(r)) continue;
      const p = join(abs, entry.name);
      const info = await lstat(p);
      if (entry.isDirectory()) {
        out.set(`${r}/`, `dir ${info.mode.toString(8)}`);
        await walk(p, r);
      } else if (entry.isSymbolicLink()) out.set(r, `link ${await readlink(p)}`);
      else
        out.set(
          r,
          `file ${info.mode.toString(8)} ${info.size} ${info.mtimeMs} ${createHash("sha256")
            .update(await readFile(p))
            .digest("hex")}`,
        );
    }
  };
  await walk(dir, "");
  return out;
}

/** Differences between two snapshots, as readable lines (empty when equal). */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of before) if (after.get(k) !== v) out.push(after.has(k) ? `changed ${k}` : `removed ${k}`);
  for (const k of after.keys()) if (!before.has(k)) out.push(`added ${k}`);
  return out;
}

/** Every regular file under `dir`, relative, '/'-separated (missing dir = none). */
export async function filesUnder(dir: string, base = ""): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) out.push(...(await filesUnder(join(dir, entry.name), `${base}${entry.name}/`)));
    else out.push(`${base}${entry.name}`);
  }
  return out;
}

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
