import { spawn } from "node:child_process";
import { z } from "zod";
import { ArefError } from "@artifact-refs/schema";
import type { Tool, ToolOutput } from "./registry.js";

/** Most output the tool keeps (the store's cap); the rest is cut and the result says so. */
const MAX_OUTPUT_BYTES = 512 * 1024;

/**
 * Runs one of a fixed list of commands in the workspace (never an arbitrary command a model
 * makes up: a real LLM provider can only pick from `allowed`). Output is stdout and stderr
 * interleaved, as a terminal shows it; a non-zero exit is an "error" result.
 */
export function runCommandTool(options: {
  cwd: string;
  allowed: string[];
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}): Tool<{ command: string }> {
  return {
    name: "run_command",
    title: "Run Command",
    description: `Runs one of these commands in the workspace and returns its output: ${options.allowed.map((c) => JSON.stringify(c)).join(", ")}.`,
    args: z.object({ command: z.string().min(1).max(1_000) }).strict(),
    async run({ command }, { signal }): Promise<ToolOutput> {
      if (!options.allowed.includes(command)) {
        throw new ArefError("FORBIDDEN", `command not allowed: ${JSON.stringify(command)}`, {
          hint: `allowed: ${options.allowed.join(" | ")}`,
        });
      }
      const started = Date.now();
      const { output, code } = await new Promise<{ output: string; code: number | null }>((resolve, reject) => {
        const child = spawn(command, {
          cwd: options.cwd,
          shell: true,
          signal,
          env: { ...process.env, ...options.env, FORCE_COLOR: "0", NO_COLOR: "1", CI: "true" },
        });
        const chunks: Buffer[] = [];
        let size = 0;
        const keep = (b: Buffer) => {
          if (size < MAX_OUTPUT_BYTES) chunks.push(b.subarray(0, MAX_OUTPUT_BYTES - size));
          size += b.byteLength;
        };
        child.stdout.on("data", keep);
        child.stderr.on("data", keep);
        const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
        child.on("error", (error) => {
          clearTimeout(timer);
          reject(new ArefError("IO_ERROR", `could not run ${command}: ${error.message}`));
        });
        child.on("close", (exit) => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            output: size > MAX_OUTPUT_BYTES ? `${text}\n[output cut at ${MAX_OUTPUT_BYTES} of ${size} bytes]` : text,
            code: exit,
          });
        });
      });
      const lines = output.split("\n").length;
      return {
        result: output,
        display: { type: "code", syntax: "text" },
        summary: `Ran \`${command}\`: exit ${code ?? "killed"}, ${lines} lines in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        mime: "text/plain",
        resultType: code === 0 ? "success" : "error",
      };
    },
  };
}
