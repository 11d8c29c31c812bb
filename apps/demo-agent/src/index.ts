export { runDemo, SYSTEM_PROMPT, type DemoOptions } from "./agent.js";
export {
  renderReport,
  renderChart,
  renderTable,
  reportArtifacts,
  refsMentioned,
  REPORT_ARTIFACT_MAX_CHARS,
  type CallRow,
  type DemoSummary,
  type ReportArtifact,
} from "./report.js";
export { DEFAULT_REQUESTS, TEST_COMMAND } from "./requests.js";
export { selectProvider, type ProviderChoice } from "./providers/select.js";
export { ScriptedProvider } from "./providers/scripted.js";
export { OpenAIProvider, type OpenAIProviderOptions } from "./providers/openai.js";
export { AnthropicProvider, toAnthropic, type AnthropicProviderOptions } from "./providers/anthropic.js";
export { runCommandTool } from "@artifact-refs/tools";
export type { ModelProvider, ProviderReply, ToolCallRequest } from "./providers/types.js";
