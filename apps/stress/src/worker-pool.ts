import { Worker } from "node:worker_threads";

export interface CaseResult {
  i: number;
  ok: boolean;
  aref?: boolean;
  code?: string;
  message?: string;
  chars?: number;
}

/**
 * One worker thread that runs cases one at a time, each with a wall-clock limit. A case
 * over the limit counts as a hang: the worker is terminated and a fresh one started.
 */
export class TimedWorker {
  #worker: Worker | undefined;
  readonly #script: string;
  readonly #init: unknown;
  hangs = 0;
  slowest = 0;

  constructor(script: string, init: unknown) {
    this.#script = script;
    this.#init = init;
  }

  async #ready(): Promise<Worker> {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#script, { execArgv: [] }); // not vitest's --conditions=@artifact-refs/source: dist/
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.postMessage(this.#init);
    });
    this.#worker = worker;
    return worker;
  }

  /** The case's result, or "hang" when it took longer than `limitMs`. */
  async run(message: Record<string, unknown> & { i: number }, limitMs: number): Promise<CaseResult | "hang"> {
    const worker = await this.#ready();
    const started = performance.now();
    const result = await new Promise<CaseResult | "hang">((resolve) => {
      const timer = setTimeout(() => {
        worker.off("message", onMessage);
        resolve("hang");
      }, limitMs);
      const onMessage = (m: CaseResult) => {
        if (m.i !== message.i) return;
        clearTimeout(timer);
        worker.off("message", onMessage);
        resolve(m);
      };
      worker.on("message", onMessage);
      worker.postMessage(message);
    });
    this.slowest = Math.max(this.slowest, performance.now() - started);
    if (result === "hang") {
      this.hangs++;
      await this.#worker?.terminate();
      this.#worker = undefined;
    }
    return result;
  }

  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
