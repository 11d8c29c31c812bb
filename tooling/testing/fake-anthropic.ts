// A local HTTP server speaking the Anthropic Messages wire format with a scripted model; the
// HTTP plumbing and the script are shared with the OpenAI fake (fake-http.ts, scripted-model.ts).
import { startJsonServer, type Recorded } from "./fake-http.js";
import type { Script } from "./scripted-model.js";

export type { Recorded } from "./fake-http.js";
export { BIG_LOG_MIDDLE, bigLog, logScript, type Move, type Script } from "./scripted-model.js";

export interface FakeAnthropic {
  /** Base URL for the SDK (`baseURL` / ANTHROPIC_BASE_URL), e.g. http://127.0.0.1:1234 */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 that speaks the Anthropic Messages wire format
 * (POST /v1/messages, non-streaming). The real `@anthropic-ai/sdk` client talks HTTP to it;
 * a tool move's `args` become the tool_use block's `input`.
 */
export async function startFakeAnthropic(script: Script): Promise<FakeAnthropic> {
  const server = await startJsonServer({
    accepts: (path) => path.startsWith("/v1/messages"),
    notFound: (_method, path) => ({ type: "error", error: { type: "not_found_error", message: `no route ${path}` } }),
    reply: ({ raw, body }, n) => {
      const move = script(raw, n - 1);
      const content =
        "tool" in move
          ? [{ type: "tool_use", id: `toolu_${n}`, name: move.tool, input: move.args }]
          : [{ type: "text", text: move.text }];
      return {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content,
        stop_reason: "tool" in move ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: Math.ceil(raw.length / 4), output_tokens: 10 },
      };
    },
  });
  return { url: server.origin, requests: server.requests, close: server.close };
}
