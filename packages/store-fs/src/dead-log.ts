import { closeSync, constants, lstatSync, openSync, readSync } from "node:fs";
import { errnoOf, fsError } from "./errors.js";
import { DEAD_LINE_BYTES, type DeadOp } from "./pack-format.js";

/**
 * What a pack's dead log says so far. Each delete of a packed key appends to it:
 * - `!id`: deleted (an unconditional delete);
 * - a conditional delete (gc: only if unmodified since T) appends `?id` first (pending), then reads the pack's
 *   time and appends `-id` (deleted) or `+id` (kept). Its outcome is decided on the time read after `?` landed.
 * A key is dead once any `-`/`!` is logged (for good: a later put of it writes a new copy elsewhere), and
 * pending while some `?` has no outcome yet (a gc crashed in between leaves it pending: then it is never
 * counted as stored by a put again, and the next gc decides it anew). Lines are appended with one O_APPEND
 * write each (atomic on a local file system); a torn last line is ignored until complete.
 */
export class DeadLog {
  readonly path: string;
  size = 0;
  readonly dead = new Set<string>();
  readonly pending = new Map<string, number>();

  constructor(path: string) {
    this.path = path;
  }

  /** Reads what was appended since the last look (one lstat when nothing was). */
  refresh(root: string): void {
    let size: number;
    try {
      size = lstatSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    } catch (error) {
      throw fsError(error, "read", this.path, root);
    }
    if (size <= this.size) return;
    // Only what was appended since the last look, whole lines only (a torn last line waits for its end;
    // a damaged line is skipped: its key then reads as not deleted, which keeps data rather than losing it).
    const raw = Buffer.alloc(size - this.size);
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      if (errnoOf(error) === "ENOENT") return;
      throw fsError(error, "read", this.path, root);
    }
    let got: number;
    try {
      got = readSync(fd, raw, 0, raw.byteLength, this.size);
    } catch (error) {
      throw fsError(error, "read", this.path, root);
    } finally {
      closeSync(fd);
    }
    const end = raw.lastIndexOf(10, got - 1) + 1;
    for (const line of raw.toString("latin1", 0, end).split("\n")) {
      if (line.length !== DEAD_LINE_BYTES - 1 || !/^[?+!-][0-9a-f]{64}$/.test(line)) continue;
      const op = line[0] as DeadOp;
      const id = line.slice(1);
      if (op === "-" || op === "!") this.dead.add(id);
      if (op === "?") this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
      if (op === "-" || op === "+") this.pending.set(id, (this.pending.get(id) ?? 0) - 1);
    }
    this.size += end;
  }

  isPending(id: string): boolean {
    return (this.pending.get(id) ?? 0) > 0;
  }
}
