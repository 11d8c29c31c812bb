import { createRequire } from "node:module";
import type { OutStream } from "./io.js";

type CliProgress = typeof import("cli-progress");
const require = createRequire(import.meta.url);

/** A store with more items than this shows a progress bar (when stderr is a terminal). */
export const PROGRESS_THRESHOLD = 200;

export interface Progress {
  /** Pass as `onProgress` to ArtifactStore.gc / verify. */
  update: (done: number, total: number) => void;
  stop: () => void;
}

/**
 * A progress bar on stderr, shown only when stderr is a terminal and the job has more
 * than PROGRESS_THRESHOLD items, so pipes, logs and --json output never see it.
 */
export function createProgress(stderr: OutStream, label: string): Progress {
  let bar: InstanceType<CliProgress["SingleBar"]> | undefined;
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        started = true;
        if (stderr.isTTY === true && total > PROGRESS_THRESHOLD) {
          // Loaded only when a bar shows, so no other run pays for it.
          const cliProgress = require("cli-progress") as CliProgress;
          bar = new cliProgress.SingleBar(
            {
              stream: stderr as unknown as NodeJS.WritableStream,
              format: `${label} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted}`,
              hideCursor: true,
              clearOnComplete: false,
              etaBuffer: 50,
              fps: 10,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, done);
        }
      }
      if (bar) {
        if (total !== bar.getTotal()) bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
