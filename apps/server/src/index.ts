export {
  createServer,
  startServer,
  SERVER_VERSION,
  type ArefServer,
  type RunningServer,
  type StartOptions,
} from "./app.js";
export { DEFAULT_BODY_LIMIT, DEFAULT_RATE_LIMIT, type ServerOptions } from "./options.js";
export { TokensSchema, type Tokens, type TokensInput, type Principal } from "./auth.js";
export type { Tool, ToolOutput } from "@artifact-refs/tools";
export { openAiCompatibleProvider, type ChatProvider } from "./provider.js";
export { createKit, type SessionPreload } from "./kit/index.js";
export type {
  ServerKit,
  ExecutionLog,
  NewExecution,
  ChatContext,
  ContextView,
  ContextMessage,
  ReferenceCandidate,
} from "./kit/types.js";
export { STATUS_OF, toHttpError } from "./errors.js";
export { openApiDocument } from "./openapi.js";
