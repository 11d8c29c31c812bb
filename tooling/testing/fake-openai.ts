// A local HTTP server speaking the OpenAI wire format (Chat Completions and Responses) with a
// scripted model: the real SDKs talk HTTP to it. Shared by the openai and ai-sdk adapter tests.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** The scripted model's next move: call a tool, or answer with text. */
export type Move = { tool: string; args: Record<string, unknown> } | { text: string };

export interface Recorded {
  path: string;
  raw: string;
  body: Record<string, unknown>;
}

export interface FakeOpenAI {
  /** Base URL for the SDK (`baseURL` / OPENAI_BASE_URL), e.g. http://127.0.0.1:1234/v1 */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/**
 * A local HTTP server on 127.0.0.1 that speaks the OpenAI wire formats (POST /v1/chat/completions
 * and POST /v1/responses, non-streaming). The real `openai` client talks HTTP to it; `script`
 * decides each reply from the request body (its raw text and its index).
 */
export async function startFakeOpenAI(script: (raw: string, index: number) => Move): Promise<FakeOpenAI> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    void read(req).then((raw) => {
      const path = req.url ?? "";
      if (req.method !== "POST" || !(path.endsWith("/chat/completions") || path.endsWith("/responses"))) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path, raw, body });
      const n = requests.length;
      const move = script(raw, n - 1);
      const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 10, total_tokens: Math.ceil(raw.length / 4) + 10 };
      let reply: unknown;
      if (path.endsWith("/chat/completions")) {
        const message =
          "tool" in move
            ? { role: "assistant", content: null, tool_calls: [{ id: `call_${n}`, type: "function", function: { name: move.tool, arguments: JSON.stringify(move.args) } }] }
            : { role: "assistant", content: move.text };
        reply = { id: `chatcmpl-${n}`, object: "chat.completion", created: 1_700_000_000, model: body.model, choices: [{ index: 0, finish_reason: "tool" in move ? "tool_calls" : "stop", message }], usage };
      } else {
        const item =
          "tool" in move
            ? { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: move.tool, arguments: JSON.stringify(move.args), status: "completed" }
            : { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: move.text, annotations: [] }] };
        reply = {
          id: `resp_${n}`,
          object: "response",
          created_at: 1_700_000_000,
          status: "completed",
          model: body.model,
          output: [item],
          parallel_tool_calls: true,
          tool_choice: "auto",
          tools: [],
          usage: { input_tokens: usage.prompt_tokens, output_tokens: 10, total_tokens: usage.total_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
        };
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The scripted agent turn: call read_log, then artifacts_get on the ref it was given, then answer. */
export function logScript(raw: string, index: number): Move {
  if (index === 0) return { tool: "read_log", args: { path: "test.log" } };
  if (index === 1) {
    const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
    if (ref === undefined) return { text: "NO REFERENCE IN THE PROMPT" };
    return { tool: "artifacts_get", args: { ref, selector: { mode: "grep", pattern: "^FAIL", context: 0 } } };
  }
  const failures = raw.match(/FAIL test\/case-\d+/g) ?? [];
  return { text: `found ${new Set(failures).size} failures` };
}

/** ~100 KB test log: 2,000 lines with 4 failures; each line is unique. */
export function bigLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 2000; i++) lines.push(i % 500 === 0 ? `FAIL test/case-${i}.test.ts > expected ${i} got ${i + 1}` : `ok ${i} test/case-${i}.test.ts (${(i * 7) % 13} ms) ${"-".repeat(24)}`);
  return `${lines.join("\n")}\n`;
}
