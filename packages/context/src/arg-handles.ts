import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArefError, parseSessionId } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import type { ToolDefinition } from "./artifacts-get.js";

/** How a tool wants a handle in one of its arguments: the content itself, or a path to a file holding it. */
export type ArtifactArgMode = "content" | "path";

/** A handle as it appears inside an argument string: `art:<12..64 hex>` or `aref:v1:sha256:<64 hex>`. */
export const HANDLE_IN_TEXT_RE = /(?<![0-9A-Za-z_:])(?:aref:v1:sha256:[0-9a-f]{64}|art:[0-9a-f]{12,64})(?![0-9a-f])/g;

export interface ResolvedHandle {
  /** Argument name (dotted path for nested objects). */
  arg: string;
  ref: string;
  artifactId: string;
  mode: ArtifactArgMode;
  path?: string;
}

export interface ResolveArgsResult {
  args: Record<string, unknown>;
  resolved: ResolvedHandle[];
  /** Removes the temp files written for "path" arguments. Safe to call twice. */
  cleanup(): Promise<void>;
}

export interface ResolveArgsOptions {
  store: ArtifactStore;
  session: string;
  /** Where temp files for "path" arguments go (a private 0700 directory is made inside). Default: os.tmpdir(). */
  tmpDir?: string;
}

/**
 * Which arguments of a tool take handles, and how. Reads a `resolveArtifacts` map, or the
 * `resolveArtifacts` keyword on each property of the tool's JSON-schema parameters.
 */
export function artifactArgModes(tool: {
  resolveArtifacts?: Record<string, ArtifactArgMode>;
  parameters?: Record<string, unknown>;
}): Record<string, ArtifactArgMode> {
  const modes: Record<string, ArtifactArgMode> = { ...(tool.resolveArtifacts ?? {}) };
  const properties = (tool.parameters?.properties ?? {}) as Record<string, { resolveArtifacts?: unknown }>;
  for (const [name, schema] of Object.entries(properties)) {
    const mode = schema?.resolveArtifacts;
    if (mode === undefined) continue;
    if (mode !== "content" && mode !== "path") {
      throw new ArefError(
        "INVALID_INPUT",
        `argument ${name} declares resolveArtifacts ${JSON.stringify(mode)}; use "content" or "path"`,
      );
    }
    modes[name] = mode;
  }
  for (const [name, mode] of Object.entries(modes)) {
    if (mode !== "content" && mode !== "path") {
      throw new ArefError(
        "INVALID_INPUT",
        `argument ${name} declares resolveArtifacts ${JSON.stringify(mode)}; use "content" or "path"`,
      );
    }
  }
  return modes;
}

/** A copy of a tool definition without the `resolveArtifacts` keywords (for sending to a provider). */
export function stripArtifactAnnotations<T extends ToolDefinition>(tool: T): T {
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const clean: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const { resolveArtifacts: _drop, ...rest } = schema;
    clean[name] = rest;
  }
  return { ...tool, parameters: { ...tool.parameters, properties: clean } };
}

/**
 * Replaces handles inside a tool's arguments by their content or by a path to a temp file
 * (0600, in a private 0700 directory) holding the content, as the tool declares per argument.
 * Undeclared arguments are left untouched. Handles resolve within the session.
 */
export async function resolveArtifactArgs(
  args: Record<string, unknown>,
  modes: Record<string, ArtifactArgMode>,
  options: ResolveArgsOptions,
): Promise<ResolveArgsResult> {
  const session = parseSessionId(options.session);
  const resolved: ResolvedHandle[] = [];
  let dir: string | undefined;
  const paths = new Map<string, string>();
  const cleanup = async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  };
  const replaceIn = async (text: string, arg: string, mode: ArtifactArgMode): Promise<string> => {
    const matches = [...text.matchAll(HANDLE_IN_TEXT_RE)];
    if (matches.length === 0) return text;
    let out = "";
    let last = 0;
    for (const m of matches) {
      const ref = m[0];
      const id = await options.store.resolve(ref, { session });
      let replacement: string;
      if (mode === "content") {
        replacement = await options.store.getText(id, { session });
        resolved.push({ arg, ref, artifactId: id, mode });
      } else {
        let path = paths.get(id);
        if (path === undefined) {
          dir ??= await mkdtemp(join(options.tmpDir ?? tmpdir(), "aref-args-"));
          path = join(dir, id.slice(0, 16));
          await writeFile(path, await options.store.get(id, { session }), { mode: 0o600, flag: "wx" });
          paths.set(id, path);
        }
        replacement = path;
        resolved.push({ arg, ref, artifactId: id, mode, path });
      }
      out += text.slice(last, m.index) + replacement;
      last = m.index! + ref.length;
    }
    return out + text.slice(last);
  };
  const walk = async (value: unknown, arg: string, mode: ArtifactArgMode): Promise<unknown> => {
    if (typeof value === "string") return replaceIn(value, arg, mode);
    if (Array.isArray(value)) return Promise.all(value.map((v, i) => walk(v, `${arg}[${i}]`, mode)));
    if (typeof value === "object" && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await walk(v, `${arg}.${k}`, mode);
      return out;
    }
    return value;
  };
  const out: Record<string, unknown> = { ...args };
  try {
    for (const [name, mode] of Object.entries(modes)) {
      if (out[name] !== undefined) out[name] = await walk(out[name], name, mode);
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { args: out, resolved, cleanup };
}
