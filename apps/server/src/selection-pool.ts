import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { ArefError, type ErrorCode, type Selection, type Selector } from "@artifact-refs/schema";
import { Piscina } from "piscina";
import type { SelectionOutcome, SelectionTask } from "./selection-worker.js";

/**
 * JSONPath and grep selections of large texts run in a pool of worker threads, so one client's
 * expensive selection never holds the event loop other clients need. Small texts and the cheap
 * modes (headtail, range) stay on the event loop: posting a text to a thread costs more than
 * selecting from it.
 */
export interface SelectionPoolOptions {
  /** Texts at least this long (chars) go to the pool for jsonpath/grep. Default 16 Ki (a deep 16 KiB document can already be expensive; posting it costs microseconds). */
  minChars?: number;
  /** Threads. Default: available cores − 1, at least 1, at most 4. */
  threads?: number;
  /** A selection running longer is stopped (its thread replaced) and answered TOO_LARGE. Default 30,000 ms (a backstop: the work budget bounds JSONPath; the time includes waiting for a thread, so it is generous). */
  timeoutMs?: number;
  /** Selections waiting for a thread beyond this many are refused with RATE_LIMITED. Default 256. */
  maxQueue?: number;
}

/** The worker's file: the built one next to this module, or the TypeScript source under tsx (tests, benchmarks). */
function workerFile(): { filename: string; execArgv: string[] } {
  const built = fileURLToPath(new URL("./selection-worker.js", import.meta.url));
  if (existsSync(built)) return { filename: built, execArgv: [] };
  return {
    filename: fileURLToPath(new URL("./selection-worker.ts", import.meta.url)),
    execArgv: ["--conditions=@artifact-refs/source", "--import", "tsx"],
  };
}

export class SelectionPool {
  readonly #minChars: number;
  readonly #timeoutMs: number;
  readonly #jsonPathWorkBudget: number;
  #pool: Piscina | undefined;
  readonly #options: SelectionPoolOptions;

  constructor(jsonPathWorkBudget: number, options: SelectionPoolOptions = {}) {
    this.#jsonPathWorkBudget = jsonPathWorkBudget;
    this.#minChars = options.minChars ?? 16 * 1024;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#options = options;
  }

  /** Whether this selection goes to a thread. */
  wants(text: unknown, selector: Selector): text is string {
    return (
      typeof text === "string" &&
      text.length >= this.#minChars &&
      (selector.mode === "jsonpath" || selector.mode === "grep")
    );
  }

  /** Threads started so far (0 until the first large selection). */
  get threads(): number {
    return this.#pool?.threads.length ?? 0;
  }

  #start(): Piscina {
    const { filename, execArgv } = workerFile();
    const threads = this.#options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    return new Piscina({
      filename,
      execArgv,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      maxQueue: this.#options.maxQueue ?? 256,
    });
  }

  /** The selection: in a thread when `wants` says so, else `inline` on the event loop. */
  run(text: string, selector: Selector, inline: () => Selection): Selection | Promise<Selection> {
    return this.wants(text, selector) ? this.select(text, selector) : inline();
  }

  /** Runs the selection in a thread; errors come back as the ArefError the selector raised. */
  async select(text: string, selector: Selector): Promise<Selection> {
    this.#pool ??= this.#start();
    const task: SelectionTask = { text, selector, jsonPathWorkBudget: this.#jsonPathWorkBudget };
    let outcome: SelectionOutcome;
    try {
      outcome = await this.#pool.run(task, { signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === "AbortError" || name === "TimeoutError")
        throw new ArefError("TOO_LARGE", `the selection took longer than ${this.#timeoutMs} ms and was stopped`, {
          hint: "narrow the selector (a more specific JSONPath, a shorter grep pattern) or fetch a range",
        });
      if (/queue is full/i.test((error as Error).message))
        throw new ArefError("RATE_LIMITED", "too many selections are waiting for a thread", {
          hint: "retry in a moment",
        });
      throw error;
    }
    if (outcome.ok) return outcome.selection;
    const { code, message, hint, details } = outcome.error;
    throw new ArefError(code as ErrorCode, message, {
      ...(hint === undefined ? {} : { hint }),
      ...(details === undefined ? {} : { details }),
    });
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }
}
