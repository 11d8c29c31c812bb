export { ToolRegistry, type Tool, type ToolOutput } from "./registry.js";
export { builtinTools, readFileTool, listFilesTool, grepTool, READ_FILE_MAX_BYTES } from "./builtin.js";
export { runCommandTool } from "./run-command.js";
export { Workspace } from "./workspace.js";
