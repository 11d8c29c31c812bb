import { existsSync } from "node:fs";
import {
  ArefError,
  ErrorReceiptSchema,
  parseWith,
  receiptName,
  toShortRef,
  type ArtifactId,
} from "@artifact-refs/schema";
import type { ArtifactStore, ArtifactStoreOptions } from "@artifact-refs/store";
import type { Command } from "commander";
import type { z } from "zod";
import { normalizeError, UsageError } from "./errors.js";
import { EXIT, exitCodeOf, type ExitCode } from "./exit-codes.js";
import { terminalSafe } from "./format.js";
import { writeAll, type CliIo } from "./io.js";
import { createProgress, type Progress } from "./progress.js";

export interface GlobalOptions {
  store?: string;
  json?: boolean;
  quiet?: boolean;
}

/** The commands that may create the store they are given; every other command only reads one that exists. */
const CREATES_STORE = new Set(["stash", "migrate", "serve", "mcp", "analyze"]);

/**
 * What every command gets: the io of this run, the global flags, the store, and the
 * output helpers (receipts validated against their schema before they are printed).
 */
export class CliContext {
  readonly io: CliIo;
  /** Exit code of a run that did not throw (verify sets 5 when problems remain). */
  exitCode: ExitCode = EXIT.OK;
  /** True when the command being run was given --json. */
  json = false;
  /** True with --quiet: notes, warnings and progress on stderr are left out (errors are not). */
  quiet = false;
  /** The subcommand being run (for usage hints), once commander has chosen it. */
  command: string | undefined;
  readonly #stores: ArtifactStore[] = [];

  constructor(io: CliIo) {
    this.io = io;
  }

  globals(cmd: Command): GlobalOptions {
    return cmd.optsWithGlobals<GlobalOptions>();
  }

  /** Opens the store named by --store, else AREF_STORE, else the default under the home directory. */
  async openStore(cmd: Command, options: Omit<ArtifactStoreOptions, "driver"> = {}): Promise<ArtifactStore> {
    const { openStore, parseStoreSpec, storeSpecFrom } = await import("@artifact-refs/store-spec"); // loaded by the commands that use a store
    const spec = parseStoreSpec(storeSpecFrom(this.globals(cmd).store, this.io.env), this.io.cwd);
    if (spec.kind === "fs" && !CREATES_STORE.has(this.command ?? "") && !existsSync(spec.root)) {
      throw new ArefError("UNAVAILABLE", `no store at ${spec.root}: the directory does not exist`, {
        hint: "check --store (or AREF_STORE) for a typo; `aref stash <file> --store <dir>` creates a store",
        details: { store: spec.root },
      });
    }
    const store = await openStore(spec, options);
    this.#stores.push(store);
    return store;
  }

  async closeStores(): Promise<void> {
    for (const store of this.#stores.splice(0)) await store.close().catch(() => undefined);
  }

  /** The short ref users should type: unique within the whole store (and the session when given). */
  async shortRefOf(store: ArtifactStore, id: ArtifactId, session?: string): Promise<string> {
    const refs = [await store.shortRef(id)];
    if (session !== undefined) refs.push(await store.shortRef(id, { session }));
    return refs.reduce((a, b) => (b.length > a.length ? b : a), toShortRef(id));
  }

  /**
   * Validates a receipt against its schema, then prints it as JSON (with --json) or
   * runs `human` to print the human form. An invalid receipt is a bug (INTERNAL).
   */
  async emit<S extends z.ZodType>(
    schema: S,
    receipt: z.input<S>,
    human: (valid: z.output<S>) => Promise<void> | void,
  ): Promise<z.output<S>> {
    const valid = parseWith(schema, receipt, "receipt", "INTERNAL");
    if (this.json) await this.out(`${JSON.stringify(valid, null, 2)}\n`);
    else await human(valid);
    return valid;
  }

  /** Writes to stdout: text with terminal control characters escaped (see terminalSafe), bytes (`cat`) as they are. */
  out(text: string | Uint8Array): Promise<void> {
    return writeAll(this.io.stdout, typeof text === "string" ? terminalSafe(text) : text);
  }

  /** A note, warning or hint on stderr; left out with --quiet. */
  err(text: string): Promise<void> {
    return this.quiet ? Promise.resolve() : writeAll(this.io.stderr, terminalSafe(text));
  }

  /** Same as err(): a note on stderr that --quiet leaves out. */
  note(text: string): Promise<void> {
    return this.err(text);
  }

  progress(label: string): Progress {
    return createProgress(this.quiet ? { write: () => true, isTTY: false } : this.io.stderr, label);
  }

  /** Reports an error (error receipt with --json, else `aref: …` and `hint: …` on stderr); returns the exit code. */
  async fail(error: unknown): Promise<ExitCode> {
    const e = normalizeError(error);
    const usage = e instanceof UsageError;
    const exit = usage ? EXIT.USAGE : exitCodeOf(e.code);
    const hint =
      e.hint ??
      (usage ? `run \`aref ${this.command ? `${this.command} ` : ""}--help\` for usage and examples` : undefined);
    try {
      if (this.json) {
        const body = usage
          ? { code: "INVALID_INPUT" as const, message: e.message, ...(hint ? { hint } : {}), details: { usage: true } }
          : (e as ArefError).toJSON();
        const receipt = ErrorReceiptSchema.parse({ schema: receiptName("error"), error: body });
        await this.out(`${JSON.stringify(receipt, null, 2)}\n`);
      } else {
        await writeAll(this.io.stderr, `aref: ${e.message}\n${hint ? `hint: ${hint}\n` : ""}`);
      }
      if (!usage && e.code === "INTERNAL" && this.io.env.AREF_DEBUG) {
        const cause = (e as ArefError).cause;
        await writeAll(this.io.stderr, `${cause instanceof Error ? cause.stack : String(cause)}\n`);
      }
    } catch {
      // stdout or stderr is gone (a closed pipe): nothing more can be said
    }
    return exit;
  }
}
