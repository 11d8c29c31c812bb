export { createArefMcpServer, MCP_SERVER_NAME, MCP_SERVER_VERSION, type ArefMcpServerOptions } from "./server.js";
export { serveStdio, type StdioServeOptions } from "./stdio.js";
export { serveHttp, type HttpServeOptions, type RunningHttpServer } from "./http.js";
export { runMcpCommand, MCP_USAGE } from "./main.js";
export { fallbackText, resourceLink, type ResourceLinkContent, type TextContent, type ToolContent } from "./content.js";
export {
  parseResourceUri,
  resourceUri,
  RESOURCE_URI_PREFIX,
  RESOURCE_TEMPLATE,
  SELECTION_TEMPLATE,
  SELECTOR_QUERY_KEYS,
  type ParsedResourceUri,
} from "./uri.js";
export { McpProxy, PROXY_TOOLS, DEFAULT_UPSTREAM_TIMEOUT_MS, type McpProxyOptions } from "./proxy/proxy.js";
export { serveProxyStdio, type ProxyServeOptions } from "./proxy/serve.js";
export { upstreamTransport, upstreamName, parseUpstreamHeaders, type UpstreamSpec } from "./proxy/upstream.js";
export { shrinkToolResult, type ShrinkCall, type ShrinkOutcome } from "./proxy/shrink.js";
