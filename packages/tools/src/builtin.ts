import { lstat, open, opendir, readFile, realpath } from "node:fs/promises";
import { extname, join } from "node:path";
import { RE2JS } from "re2js";
import { z } from "zod";
import { ArefError } from "@artifact-refs/schema";
import type { Tool, ToolOutput } from "./registry.js";
import type { Workspace } from "./workspace.js";

/** Largest file read_file returns (the store's default per-artifact cap). */
export const READ_FILE_MAX_BYTES = 512 * 1024;
/** grep skips files larger than this. */
const GREP_MAX_FILE_BYTES = 1024 * 1024;
const GREP_MAX_FILES = 5_000;

const SYNTAX: Record<string, string> = {
  ".md": "markdown",
  ".ts": "typescript",
  ".tsx": "typescript",
  ".js": "javascript",
  ".mjs": "javascript",
  ".json": "json",
  ".py": "python",
  ".yml": "yaml",
  ".yaml": "yaml",
  ".sh": "bash",
  ".html": "html",
  ".css": "css",
  ".txt": "text",
  ".log": "text",
};

const RelPath = z.string().min(1).max(1_000);

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.byteLength, 8_192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function readFileTool(ws: Workspace): Tool<{ path: string }> {
  return {
    name: "read_file",
    title: "Read File",
    description: "Reads a text file under the workspace root.",
    args: z.object({ path: RelPath }).strict(),
    async run({ path }): Promise<ToolOutput> {
      const abs = await ws.resolve(path);
      const info = await lstat(abs);
      if (!info.isFile())
        throw new ArefError("INVALID_INPUT", `${path} is not a file`, { hint: "use list_files for directories" });
      if (info.size > READ_FILE_MAX_BYTES) {
        throw new ArefError(
          "TOO_LARGE",
          `${path} is ${info.size} bytes, over read_file's cap of ${READ_FILE_MAX_BYTES} bytes`,
          {
            hint: "use grep to find the part you need",
          },
        );
      }
      const bytes = await readFile(abs);
      if (isBinary(bytes))
        throw new ArefError("UNSUPPORTED", `${path} is a binary file`, { hint: "read_file returns text files only" });
      const text = bytes.toString("utf8");
      const syntax = SYNTAX[extname(path).toLowerCase()] ?? "text";
      return {
        result: text,
        display: { type: "code", syntax },
        summary: `Loaded ${path} (${kb(bytes.byteLength)})`,
        mime: syntax === "json" ? "application/json" : "text/plain",
      };
    },
  };
}

interface Entry {
  rel: string;
  kind: "file" | "dir" | "link-out" | "other";
  abs: string;
}

/** Walks the workspace from `start` without following symlinks out of it (or into directories at all). */
async function* walk(ws: Workspace, start: string, recursive: boolean, signal: AbortSignal): AsyncGenerator<Entry> {
  const queue = [start];
  while (queue.length > 0) {
    if (signal.aborted) return;
    const dir = queue.shift()!;
    const handle = await opendir(dir);
    const entries: Entry[] = [];
    for await (const dirent of handle) {
      const abs = join(dir, dirent.name);
      let kind: Entry["kind"] = dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : "other";
      if (dirent.isSymbolicLink()) {
        try {
          const real = await realpath(abs);
          if (!ws.contains(real)) kind = "link-out";
          else kind = (await lstat(real)).isFile() ? "file" : "other"; // symlinked directories are not followed
        } catch {
          kind = "other"; // dangling link
        }
      }
      entries.push({ rel: ws.relative(abs), kind, abs });
    }
    entries.sort((a, b) => a.rel.localeCompare(b.rel));
    for (const entry of entries) {
      yield entry;
      if (recursive && entry.kind === "dir") queue.push(entry.abs);
    }
  }
}

export function listFilesTool(ws: Workspace): Tool<{ path: string; recursive: boolean; max_entries: number }> {
  return {
    name: "list_files",
    title: "List Files",
    description:
      "Lists the files under a directory of the workspace (symlinks out of the workspace are shown, never followed).",
    args: z
      .object({
        path: RelPath.default("."),
        recursive: z.boolean().default(false),
        max_entries: z.number().int().min(1).max(10_000).default(1_000),
      })
      .strict(),
    async run({ path, recursive, max_entries }, { signal }): Promise<ToolOutput> {
      const abs = await ws.resolve(path);
      if (!(await lstat(abs)).isDirectory())
        throw new ArefError("INVALID_INPUT", `${path} is not a directory`, { hint: "use read_file for files" });
      const lines: string[] = [];
      let more = false;
      for await (const entry of walk(ws, abs, recursive, signal)) {
        if (lines.length >= max_entries) {
          more = true;
          break;
        }
        lines.push(
          entry.kind === "dir"
            ? `${entry.rel}/`
            : entry.kind === "link-out"
              ? `${entry.rel} -> (outside the workspace, not followed)`
              : entry.rel,
        );
      }
      if (more) lines.push(`… more entries (raise max_entries above ${max_entries})`);
      return {
        result: lines.join("\n"),
        display: { type: "code", syntax: "text" },
        summary: `Listed ${more ? `${max_entries}+` : lines.length} items in ${path}`,
        resultType: more ? "partial" : "success",
      };
    },
  };
}

export function grepTool(
  ws: Workspace,
): Tool<{ pattern: string; path: string; ignore_case: boolean; max_matches: number }> {
  return {
    name: "grep",
    title: "Grep",
    description: "Searches the workspace's text files for a regular expression (RE2 syntax, linear time).",
    args: z
      .object({
        pattern: z.string().min(1).max(1_000),
        path: RelPath.default("."),
        ignore_case: z.boolean().default(false),
        max_matches: z.number().int().min(1).max(10_000).default(200),
      })
      .strict(),
    async run({ pattern, path, ignore_case, max_matches }, { signal }): Promise<ToolOutput> {
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, ignore_case ? RE2JS.CASE_INSENSITIVE : 0);
      } catch (cause) {
        throw new ArefError(
          "INVALID_INPUT",
          `invalid pattern ${JSON.stringify(pattern.slice(0, 100))}: ${(cause as Error).message}`,
          {
            hint: "grep uses RE2 syntax (no backreferences or lookaround)",
          },
        );
      }
      const abs = await ws.resolve(path);
      const files: string[] = [];
      if ((await lstat(abs)).isFile()) files.push(abs);
      else
        for await (const entry of walk(ws, abs, true, signal))
          if (entry.kind === "file" && files.push(entry.abs) >= GREP_MAX_FILES) break;
      const out: string[] = [];
      let scanned = 0;
      let truncated = false;
      for (const file of files) {
        if (signal.aborted || truncated) break;
        const real = await realpath(file);
        const handle = await open(real, "r");
        let bytes: Buffer;
        try {
          if ((await handle.stat()).size > GREP_MAX_FILE_BYTES) continue;
          bytes = await handle.readFile();
        } finally {
          await handle.close();
        }
        if (isBinary(bytes)) continue;
        scanned++;
        const lines = bytes.toString("utf8").split(/\r?\n/);
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i]!)) continue;
          if (out.length >= max_matches) {
            truncated = true;
            break;
          }
          out.push(`${ws.relative(file)}:${i + 1}: ${lines[i]!.slice(0, 500)}`);
        }
      }
      return {
        result: out.join("\n"),
        display: { type: "code", syntax: "text" },
        summary: `Found ${out.length}${truncated ? "+" : ""} matches for /${pattern.slice(0, 60)}/ in ${scanned} files under ${path}`,
        resultType: truncated ? "partial" : "success",
      };
    },
  };
}

export function builtinTools(ws: Workspace): Tool<any>[] {
  return [readFileTool(ws), listFilesTool(ws), grepTool(ws)];
}
