import { readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey, metaKey, sha256Hex } from "@artifact-refs/store/internal";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

interface Node {
  path: string;
  dir: boolean;
  mode: number;
}

/** Every file and directory under `root` (root included as ""), '/'-separated, with its permission bits. */
async function tree(root: string): Promise<Node[]> {
  const out: Node[] = [];
  const visit = async (path: string) => {
    const info = await stat(path);
    out.push({ path: relative(root, path).split(sep).join("/"), dir: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const shardOf = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}`;

describe("fs store: layout on disk", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ root, cleanup } = await tempRoot()));
  afterEach(async () => cleanup());

  it("shards blobs, keeps metadata apart, one directory per session; files 0600 and dirs 0700 whatever the umask", async () => {
    const content = `${"0123456789".repeat(400)} UNIQUE-TAIL-MARKER`; // the summary keeps the first 200 chars only
    // umask 277 would strip the owner's write bit from a plain mkdir/open: the driver chmods explicitly.
    const previous = process.umask(0o277);
    let id: string;
    try {
      ({ id } = await new ArtifactStore({ driver: new FsDriver({ root }) }).put(content, {
        session: "s1",
        label: "doc",
      }));
    } finally {
      process.umask(previous);
    }
    const nodes = await tree(root);
    expect(nodes.filter((n) => !n.dir).map((n) => n.path)).toEqual([
      `blobs/sha256/${shardOf(id)}/${id}`,
      "layout.json",
      `meta/sha256/${shardOf(id)}/${id}.json`,
      `refs/s1/${id.slice(0, 2)}/${id}.json`,
    ]);
    for (const node of nodes)
      expect({ path: node.path, mode: node.mode.toString(8) }).toEqual({
        path: node.path,
        mode: node.dir ? "700" : "600",
      });

    const blob = await readFile(join(root, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4), id));
    expect(blob.toString()).toBe(content);
    expect(sha256Hex(blob)).toBe(id);
    const meta = await readFile(join(root, "meta", "sha256", id.slice(0, 2), id.slice(2, 4), `${id}.json`), "utf8");
    expect(meta).not.toContain("UNIQUE-TAIL-MARKER");
    expect(meta).not.toContain("0123456789".repeat(30));
    expect(meta.length).toBeLessThan(1_000);
    const record = JSON.parse(meta) as { content_uri: string; size_bytes: number };
    expect(record.content_uri).toBe(pathToFileURL(join(root, "blobs", "sha256", shardOf(id), id)).href);
    expect(record.size_bytes).toBe(Buffer.byteLength(content));
    expect(JSON.parse(await readFile(join(root, "layout.json"), "utf8"))).toEqual({ layout: 1 });
  });

  it("creates the root lazily: opening and reading a store that does not exist writes nothing", async () => {
    const driver = new FsDriver({ root });
    const store = new ArtifactStore({ driver });
    expect(await driver.get("layout.json")).toBeUndefined();
    expect(await store.has("0".repeat(64))).toBe(false);
    expect(await store.stats()).toMatchObject({ blobs: 0, references: 0 });
    await expect(stat(root)).rejects.toThrow(/ENOENT/);
  });

  it("resolves a relative root against the working directory and gives file:// URIs", async () => {
    const driver = new FsDriver({ root: relative(process.cwd(), root) });
    expect(driver.root).toBe(root);
    expect(driver.location).toBe(root);
    expect(driver.kind).toBe("fs");
    expect(driver.uri("refs/s/x.json")).toBe(pathToFileURL(join(root, "refs", "s", "x.json")).href);
    const odd = join(root, "with space #1 ?%");
    expect(new FsDriver({ root: odd, gzip: true }).uri("blobs/sha256/ab/cd/abcd")).toBe(
      pathToFileURL(join(odd, "blobs", "sha256", "ab", "cd", "abcd.gz")).href,
    );
    expect(new FsDriver({ root: "/" }).uri("layout.json")).toBe("file:///layout.json");
  });
});

describe("fs store: gzip", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ root, cleanup } = await tempRoot()));
  afterEach(async () => cleanup());
  const content = "compressible line\n".repeat(2_000);

  it("stores blobs as <hex>.gz, metadata and references plain; reports logical keys and sizes", async () => {
    const driver = new FsDriver({ root, gzip: true });
    const store = new ArtifactStore({ driver });
    const { id, record } = await store.put(content, { session: "s" });
    const dir = join(root, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4));
    expect(await readdir(dir)).toEqual([`${id}.gz`]);
    const stored = await readFile(join(dir, `${id}.gz`));
    expect(stored.byteLength).toBeLessThan(content.length / 10);
    expect(gunzipSync(stored).toString()).toBe(content);
    expect(record.content_uri).toBe(pathToFileURL(join(dir, `${id}.gz`)).href);
    expect(
      JSON.parse(await readFile(join(root, "meta", "sha256", shardOf(id), `${id}.json`), "utf8")).artifact_id,
    ).toBe(id);
    const listed = [];
    for await (const entry of driver.list("blobs/")) listed.push(entry);
    expect(listed.map((e) => [e.key, e.size])).toEqual([[blobKey(id), content.length]]);
    expect((await driver.head(blobKey(id)))?.size).toBe(content.length);
    expect(await store.stats()).toMatchObject({ blobs: 1, bytes: content.length });
    expect(await store.getText(id)).toBe(content);
  });

  it("reads either form whatever the setting, and never stores a blob twice across settings", async () => {
    const plainStore = new ArtifactStore({ driver: new FsDriver({ root }) });
    const gzStore = new ArtifactStore({ driver: new FsDriver({ root, gzip: true }) });
    const a = await plainStore.put(content);
    const b = await gzStore.put(`${content}b`);
    expect(await gzStore.getText(a.id)).toBe(content);
    expect(await plainStore.getText(b.id)).toBe(`${content}b`);
    // Re-putting under the other setting sees the existing form as stored.
    expect((await gzStore.put(content)).created).toBe(false);
    expect((await plainStore.put(`${content}b`)).created).toBe(false);
    const dirA = join(root, "blobs", "sha256", shardOf(a.id));
    const dirB = join(root, "blobs", "sha256", shardOf(b.id));
    expect((await readdir(dirA)).filter((n) => n.startsWith(a.id))).toEqual([a.id]);
    expect((await readdir(dirB)).filter((n) => n.startsWith(b.id))).toEqual([`${b.id}.gz`]);
    expect((await gzStore.verify()).ok).toBe(true);
  });

  it("lists a blob stored in both forms once, and a put in one form removes the other", async () => {
    const driver = new FsDriver({ root });
    const id = sha256Hex(new TextEncoder().encode(content));
    await driver.put(blobKey(id), new TextEncoder().encode(content));
    const dir = join(root, "blobs", "sha256", shardOf(id));
    await writeFile(join(dir, `${id}.gz`), gzipSync(content), { mode: 0o600 });
    const keys = [];
    for await (const entry of driver.list("blobs/sha256/")) keys.push(entry.key);
    expect(keys).toEqual([blobKey(id)]);
    await new FsDriver({ root, gzip: true }).put(blobKey(id), new TextEncoder().encode(content));
    expect(await readdir(dir)).toEqual([`${id}.gz`]);
    expect(await driver.delete(blobKey(id))).toBe(true);
    expect(await readdir(dir)).toEqual([]);
    expect(await driver.get(metaKey(id))).toBeUndefined();
  });
});
