export {
  AnthropicRefs,
  createAnthropicRefs,
  type AnthropicRefsOptions,
  type AnthropicTool,
  type ToolUseBlock,
  type ToolResultBlock,
  type ToolOutputSource,
} from "./refs.js";
export { toHistory, fromPrompt, errorResultIds, type AnthropicMessage } from "./prompt.js";
