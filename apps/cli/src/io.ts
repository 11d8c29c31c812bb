/** Where a run of the CLI reads and writes. `bin.ts` passes the process's; tests pass captures. */
export interface OutStream {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface InStream extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Writes a chunk and resolves once the stream has taken it (honours back-pressure for large `cat` output). */
export function writeAll(stream: OutStream, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}
