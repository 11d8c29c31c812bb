#!/usr/bin/env node
import { main } from "./main.js";

// A closed pipe (`aref cat x | head -c 10`) is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// process.exitCode, not process.exit(): Node flushes pending output (large `cat`s to a pipe) before exiting.
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
