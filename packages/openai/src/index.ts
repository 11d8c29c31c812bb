export {
  OpenAIRefs,
  createOpenAIRefs,
  type OpenAIRefsOptions,
  type ChatToolCall,
  type ChatFunctionTool,
  type ChatToolMessage,
  type ResponsesFunctionCall,
  type ResponsesFunctionTool,
  type FunctionCallOutput,
  type ToolOutputSource,
} from "./refs.js";
export { toHistory, fromPrompt, type ChatMessage } from "./prompt.js";
