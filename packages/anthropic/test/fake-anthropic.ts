import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type Move = { tool: string; input: Record<string, unknown> } | { text: string };

export interface Recorded {
  path: string;
  raw: string;
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}

export interface FakeAnthropic {
  /** Base URL for the SDK (`baseURL` / ANTHROPIC_BASE_URL), e.g. http://127.0.0.1:1234 */
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
 * A local HTTP server on 127.0.0.1 that speaks the Anthropic Messages wire format
 * (POST /v1/messages, non-streaming). The real `@anthropic-ai/sdk` client talks HTTP to it.
 */
export async function startFakeAnthropic(script: (raw: string, index: number) => Move): Promise<FakeAnthropic> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    void read(req).then((raw) => {
      const path = req.url ?? "";
      if (req.method !== "POST" || !path.startsWith("/v1/messages")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no route ${path}` } }));
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path, raw, body, headers: req.headers });
      const n = requests.length;
      const move = script(raw, n - 1);
      const content = "tool" in move ? [{ type: "tool_use", id: `toolu_${n}`, name: move.tool, input: move.input }] : [{ type: "text", text: move.text }];
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `msg_${n}`,
          type: "message",
          role: "assistant",
          model: body.model,
          content,
          stop_reason: "tool" in move ? "tool_use" : "end_turn",
          stop_sequence: null,
          usage: { input_tokens: Math.ceil(raw.length / 4), output_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The scripted turn: call read_log, then artifacts_get on the ref it was shown, then answer. */
export function logScript(raw: string, index: number): Move {
  if (index === 0) return { tool: "read_log", input: { path: "test.log" } };
  if (index === 1) {
    const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
    if (ref === undefined) return { text: "NO REFERENCE IN THE PROMPT" };
    return { tool: "artifacts_get", input: { ref, selector: { mode: "grep", pattern: "^FAIL", context: 0 } } };
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
