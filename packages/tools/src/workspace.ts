import { lstat, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { ArefError } from "@artifact-refs/schema";

/**
 * A directory tools may read, and nothing outside it: relative paths only, no `..`
 * that leaves it, and no symlink whose target leaves it (checked on the real path).
 */
export class Workspace {
  private constructor(readonly root: string) {}

  static async open(root: string): Promise<Workspace> {
    let real: string;
    try {
      real = await realpath(resolve(root));
    } catch (cause) {
      throw new ArefError("CONFIG_INVALID", `workspace root ${root} does not exist`, {
        hint: "pass an existing directory to --workspace",
        cause,
      });
    }
    if (!(await lstat(real)).isDirectory())
      throw new ArefError("CONFIG_INVALID", `workspace root ${root} is not a directory`);
    return new Workspace(real);
  }

  /** True when `abs` is the root or inside it. */
  contains(abs: string): boolean {
    const rel = relative(this.root, abs);
    return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
  }

  /** Resolves a user path to a real absolute path inside the workspace, or throws PERMISSION_DENIED / NOT_FOUND. */
  async resolve(userPath: string): Promise<string> {
    if (userPath.includes("\0")) throw new ArefError("INVALID_INPUT", "path contains a NUL character");
    if (isAbsolute(userPath))
      throw this.#escape(userPath, "absolute paths are not allowed; give a path relative to the workspace");
    const lexical = resolve(this.root, userPath);
    if (!this.contains(lexical)) throw this.#escape(userPath, "the path leaves the workspace");
    let real: string;
    try {
      real = await realpath(lexical);
    } catch {
      throw new ArefError("NOT_FOUND", `no such file or directory in the workspace: ${userPath}`, {
        hint: "list the workspace with the list_files tool",
      });
    }
    if (!this.contains(real)) throw this.#escape(userPath, "a symlink on the path points outside the workspace");
    return real;
  }

  /** The workspace-relative form of a real path, with forward slashes. */
  relative(abs: string): string {
    return relative(this.root, abs).split(sep).join("/") || ".";
  }

  #escape(userPath: string, why: string): ArefError {
    return new ArefError(
      "PERMISSION_DENIED",
      `${JSON.stringify(userPath.slice(0, 200))} is outside the workspace: ${why}`,
      {
        hint: "tools can only read files under the server's --workspace directory",
      },
    );
  }
}
