// A local server on 127.0.0.1 that speaks streaming Chat Completions (SSE chunks, as the AI SDK v5
// provider Mastra uses asks for with `stream: true`); each reply is decided by a script, as in
// tooling/testing/fake-openai.ts (which answers non-streaming requests only).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Recorded, Script } from "@artifact-refs/tooling/testing/fake-openai";

export async function startFakeStreamingOpenAI(
  script: Script,
): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path: req.url, raw, body, headers: req.headers });
      const n = requests.length;
      const move = script(raw, n - 1);
      const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1_700_000_000, model: body.model };
      const delta =
        "tool" in move
          ? {
              role: "assistant",
              tool_calls: [
                {
                  index: 0,
                  id: `call_${n}`,
                  type: "function",
                  function: { name: move.tool, arguments: JSON.stringify(move.args) },
                },
              ],
            }
          : { role: "assistant", content: move.text };
      const events = [
        { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool" in move ? "tool_calls" : "stop" }] },
        {
          ...base,
          choices: [],
          usage: {
            prompt_tokens: Math.ceil(raw.length / 4),
            completion_tokens: 10,
            total_tokens: Math.ceil(raw.length / 4) + 10,
          },
        },
      ];
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
