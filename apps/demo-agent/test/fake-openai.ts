import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeCall {
  body: { model: string; messages: Array<{ role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }>; tools?: unknown[] };
  raw: string;
}

type Reply = { content?: string; tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }> };

/**
 * A local HTTP server that speaks the OpenAI Chat Completions wire format, answering with a
 * script: `decide(body, callIndex)` returns the next assistant message. Not a mock of the SDK:
 * the real `openai` client talks HTTP to it.
 */
export async function startFakeOpenAI(decide: (body: FakeCall["body"], index: number) => Reply): Promise<{ url: string; calls: FakeCall[]; close: () => Promise<void> }> {
  const calls: FakeCall[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
  const server: Server = createServer(async (req, res) => {
    const raw = await read(req);
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const body = JSON.parse(raw) as FakeCall["body"];
    calls.push({ body, raw });
    const reply = decide(body, calls.length - 1);
    const toolCalls = (reply.tool_calls ?? []).map((c, i) => ({ id: `call_${calls.length}_${i}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${calls.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, finish_reason: toolCalls.length ? "tool_calls" : "stop", message: { role: "assistant", content: reply.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) } }],
        usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 10, total_tokens: Math.ceil(raw.length / 4) + 10 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
