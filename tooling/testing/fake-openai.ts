// A local HTTP server speaking the OpenAI wire format (Chat Completions and Responses, and
// streaming Chat Completions) with a scripted model: the real SDKs talk HTTP to it. Shared by the
// openai, ai-sdk, openai-agents, langchain, mastra and demo-agent tests.
import { startJsonServer, type Recorded } from "./fake-http.js";
import type { Move, Script } from "./scripted-model.js";

export type { Recorded } from "./fake-http.js";
export {
  BIG_LOG_MIDDLE,
  bigLog,
  logScript,
  turnLog,
  turnLogMiddle,
  type Move,
  type Script,
} from "./scripted-model.js";

export interface FakeOpenAI {
  /** Base URL for the SDK (`baseURL` / OPENAI_BASE_URL), e.g. http://127.0.0.1:1234/v1 */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

function chatCompletion(
  move: Move,
  n: number,
  model: unknown,
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
) {
  const message =
    "tool" in move
      ? {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: `call_${n}`, type: "function", function: { name: move.tool, arguments: JSON.stringify(move.args) } },
          ],
        }
      : { role: "assistant", content: move.text };
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, finish_reason: "tool" in move ? "tool_calls" : "stop", message }],
    usage,
  };
}

function response(move: Move, n: number, model: unknown, usage: { prompt_tokens: number; total_tokens: number }) {
  const item =
    "tool" in move
      ? {
          type: "function_call",
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: move.tool,
          arguments: JSON.stringify(move.args),
          status: "completed",
        }
      : {
          type: "message",
          id: `msg_${n}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: move.text, annotations: [] }],
        };
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    model,
    output: [item],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: usage.prompt_tokens,
      output_tokens: 10,
      total_tokens: usage.total_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/**
 * A local HTTP server on 127.0.0.1 that speaks the OpenAI wire formats (POST /v1/chat/completions
 * and POST /v1/responses, non-streaming). The real `openai` client talks HTTP to it; `script`
 * decides each reply from the request body (its raw text and its index).
 */
export async function startFakeOpenAI(script: Script): Promise<FakeOpenAI> {
  const server = await startJsonServer({
    accepts: (path) => path.endsWith("/chat/completions") || path.endsWith("/responses"),
    notFound: (method, path) => ({ error: { message: `no route ${method} ${path}` } }),
    reply: ({ path, raw, body }, n) => {
      const move = script(raw, n - 1);
      const usage = {
        prompt_tokens: Math.ceil(raw.length / 4),
        completion_tokens: 10,
        total_tokens: Math.ceil(raw.length / 4) + 10,
      };
      return path.endsWith("/chat/completions")
        ? chatCompletion(move, n, body.model, usage)
        : response(move, n, body.model, usage);
    },
  });
  return { url: `${server.origin}/v1`, requests: server.requests, close: server.close };
}

/** The chunks of one streaming Chat Completions reply: the move's delta, the finish reason, the usage. */
function chatCompletionChunks(move: Move, n: number, model: unknown, rawLength: number) {
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1_700_000_000, model };
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
  const promptTokens = Math.ceil(rawLength / 4);
  return [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool" in move ? "tool_calls" : "stop" }] },
    {
      ...base,
      choices: [],
      usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 },
    },
  ];
}

/**
 * A local HTTP server on 127.0.0.1 that speaks streaming Chat Completions (POST
 * /v1/chat/completions answered with server-sent chunks, as the AI SDK v5 provider Mastra uses
 * asks for with `stream: true`); `script` decides each reply as for `startFakeOpenAI`.
 */
export async function startFakeStreamingOpenAI(script: Script): Promise<FakeOpenAI> {
  const server = await startJsonServer({
    accepts: (path) => path.endsWith("/chat/completions"),
    notFound: (method, path) => ({ error: { message: `no route ${method} ${path}` } }),
    streams: true,
    reply: ({ raw, body }, n) => ({ events: chatCompletionChunks(script(raw, n - 1), n, body.model, raw.length) }),
  });
  return { url: `${server.origin}/v1`, requests: server.requests, close: server.close };
}
