import {
  ArtifactsGetTool,
  modelErrorHint,
  Redactor,
  renderGetAnswerText,
  renderModelError,
  type ArtifactsGetResult,
} from "@artifact-refs/context";
import { resolveReferences, applySelector, applySelectorToChunks, type ExecutionLike } from "@artifact-refs/resolve";
import {
  ArefError,
  ArtifactTypeSchema,
  DEFAULT_FETCH_MAX_CHARS,
  hasErrorCode,
  isArefError,
  parseSessionId,
  SelectorFieldsSchema,
  type SessionReference,
} from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { decodeUtf8, mapLimit } from "@artifact-refs/store/internal";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  type CallToolResult,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { fallbackText, resourceLink, type ToolContent } from "./content.js";
import { parseResourceUri, resourceUri, RESOURCE_TEMPLATE, SELECTION_TEMPLATE } from "./uri.js";

export const MCP_SERVER_NAME = "artifact-refs";
export const MCP_SERVER_VERSION = "0.1.0";

export interface ArefMcpServerOptions {
  store: ArtifactStore;
  /** The session whose artifacts the tools and resources see (and where stashes go). */
  session: string;
  /** Cap of one artifacts_get answer and of a selected resource read (default 8,000 chars). */
  maxChars?: number;
  /** Largest content artifacts_stash accepts, in bytes (default: the store's cap). */
  maxStashBytes?: number;
  /** Redact secrets before storing stashed content (default true, built-in rules). */
  redact?: boolean | Redactor;
}

function errorResult(error: unknown): CallToolResult {
  if (!isArefError(error)) throw error;
  const hint = modelErrorHint(error);
  return {
    isError: true,
    content: [{ type: "text", text: renderModelError(error) }],
    structuredContent: { error: { code: error.code, message: error.message, ...(hint ? { hint } : {}) } },
  };
}

/** A JSON-RPC error for the SDK to send: code and data kept, the message once (McpError would prefix "MCP error <code>:", and the client prefixes it again). */
function toMcpError(error: unknown): never {
  if (!isArefError(error)) throw error;
  const hint = modelErrorHint(error);
  throw Object.assign(new Error(`${error.code}: ${error.message}${hint ? ` (${hint})` : ""}`), {
    code: ErrorCode.InvalidParams,
    data: { code: error.code },
  });
}

/** What the model reads from artifacts_get: the selected text as it is, then plain-text lines on what it was and how to get more. */
function getAnswerContent(answer: ArtifactsGetResult): ToolContent[] {
  const { text, note } = renderGetAnswerText(answer);
  return "loop_guard" in answer
    ? [{ type: "text", text: note }]
    : [
        { type: "text", text },
        { type: "text", text: note },
      ];
}

/**
 * An MCP server over one store session: the tools artifacts_get (bounded), artifacts_stash,
 * artifacts_list and artifacts_resolve, and each of the session's artifacts as a resource
 * (`aref://sha256/<hex>`, with a selection template for bounded parts).
 */
export function createArefMcpServer(options: ArefMcpServerOptions): McpServer {
  const store = options.store;
  const session = parseSessionId(options.session);
  const maxChars = options.maxChars ?? DEFAULT_FETCH_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new ArefError("INVALID_INPUT", `maxChars must be a positive whole number, got ${String(options.maxChars)}`);
  }
  const maxStashBytes = options.maxStashBytes ?? store.maxBytes;
  const redactor =
    options.redact === false ? undefined : options.redact instanceof Redactor ? options.redact : new Redactor();
  const getTool = new ArtifactsGetTool({ store, session, maxChars });
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { resources: { listChanged: true }, tools: {} },
      instructions:
        `Large content is kept out of the conversation as artifacts with short refs (art:<hex>). ` +
        `Call artifacts_get with a ref and a selector (grep, range, jsonpath, headtail) to read at most ${maxChars} chars of one; ` +
        `artifacts_list shows the session's artifacts, artifacts_resolve maps words ("the test run", "what I just loaded") to refs, ` +
        `artifacts_stash stores new content and returns its ref.`,
    },
  );

  async function references(): Promise<SessionReference[]> {
    try {
      return await store.listReferences(session);
    } catch (error) {
      if (hasErrorCode(error, "UNKNOWN_SESSION")) return [];
      throw error;
    }
  }

  async function linkFor(id: string): Promise<{ shortRef: string; content: ToolContent[] }> {
    const record = await store.getRecord(id, { session });
    const shortRef = await store.shortRef(record.artifact_id, { session });
    return {
      shortRef,
      content: [{ type: "text", text: fallbackText(record, shortRef, maxChars) }, resourceLink(record, shortRef)],
    };
  }

  server.registerTool(
    "artifacts_get",
    {
      title: "Read part of an artifact",
      description: getTool.definition.description,
      inputSchema: {
        ref: z.string().min(1).describe("art:<12+ hex>, a full 64-hex id, or aref:v1:sha256:<64 hex>"),
        selector: SelectorFieldsSchema.optional(),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      let answer: ArtifactsGetResult;
      try {
        answer = await getTool.call(args);
      } catch (error) {
        return errorResult(error);
      }
      const content = getAnswerContent(answer);
      if ("truncated" in answer && answer.truncated) {
        // More is left: link the whole artifact.
        const link = await linkFor(answer.artifact_reference);
        content.push(...link.content.filter((c) => c.type === "resource_link"));
      }
      // structuredContent carries the answer's fields without the text (not sent twice).
      const { text: _text, ...meta } = answer as ArtifactsGetResult & { text?: string };
      return { content, structuredContent: meta };
    },
  );

  server.registerTool(
    "artifacts_stash",
    {
      title: "Store content as an artifact",
      description:
        "Store text (a file, a log, a tool output) in the artifact store and get back a short ref (art:<hex>) to use instead of the content. " +
        "Secrets are redacted before storing.",
      inputSchema: {
        content: z.string().describe("the text to store"),
        label: z.string().max(200).optional().describe("a short name, e.g. a file path or 'test run'"),
        mime: z.string().max(200).optional().describe("e.g. text/plain, application/json"),
        type: ArtifactTypeSchema.optional().describe("artifact type (default tool_output)"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      try {
        const bytes = Buffer.byteLength(args.content, "utf8");
        if (bytes > maxStashBytes) {
          throw new ArefError(
            "TOO_LARGE",
            `content is ${bytes} bytes, over this server's cap of ${maxStashBytes} bytes`,
            {
              hint: "stash a smaller part, or start the server with a larger cap",
            },
          );
        }
        const redacted = redactor?.redact(args.content);
        const put = await store.put(redacted?.text ?? args.content, {
          session,
          producer: "executor",
          type: args.type ?? "tool_output",
          ...(args.label === undefined ? {} : { label: args.label }),
          ...(args.mime === undefined ? {} : { mime: args.mime }),
          ...(redacted && redacted.kinds.length > 0 ? { redactions: redacted.kinds } : {}),
          tool: { name: "artifacts_stash", args: args.label === undefined ? {} : { label: args.label } },
        });
        server.sendResourceListChanged();
        const link = await linkFor(put.id);
        const note =
          redacted && redacted.kinds.length > 0 ? `\nredacted before storing: ${redacted.kinds.join(", ")}` : "";
        const text = `${link.content[0]!.type === "text" ? (link.content[0] as { text: string }).text : ""}${note}`;
        return {
          content: [{ type: "text", text }, ...link.content.slice(1)],
          structuredContent: {
            artifact_reference: link.shortRef,
            uri: resourceUri(put.id),
            size_bytes: put.record.size_bytes,
            created: !put.deduped,
          },
        };
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    "artifacts_list",
    {
      title: "List the session's artifacts",
      description: "List this session's artifacts, newest last: short ref, label, size, mime and summary.",
      inputSchema: {
        limit: z.number().int().min(1).max(500).optional().describe("at most this many, the newest (default 50)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      try {
        const all = await references();
        const shown = all.slice(-(args.limit ?? 50));
        const rows = await mapLimit(shown, 8, async (r) => {
          const record = await store.getRecord(r.artifact_id).catch(() => undefined);
          return {
            artifact_reference: await store.shortRef(r.artifact_id, { session }),
            uri: resourceUri(r.artifact_id),
            ...(r.label ? { label: r.label } : {}),
            type: r.type,
            size_bytes: record?.size_bytes ?? 0,
            ...(record?.mime ? { mime: record.mime } : {}),
            ...(record?.summary ? { summary: record.summary.slice(0, 160) } : {}),
            created_at: r.created_at,
          };
        });
        const text =
          rows.length === 0
            ? `session ${session} has no artifacts yet`
            : [
                `${all.length} artifact(s) in session ${session}${shown.length < all.length ? `, newest ${shown.length} shown` : ""}:`,
                ...rows.map((r) =>
                  `${r.artifact_reference}  ${r.size_bytes} B  ${r.mime ?? ""}  ${r.label ?? ""}  ${r.summary ?? ""}`.replace(
                    /\s+$/,
                    "",
                  ),
                ),
              ].join("\n");
        return {
          content: [{ type: "text", text }],
          structuredContent: { session, total: all.length, artifacts: rows },
        };
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    "artifacts_resolve",
    {
      title: "Find the artifacts some words refer to",
      description:
        'Map a user\'s words ("what I just loaded", "the test run", "the package.json", "the log before the last one") to ranked artifact candidates with reasons. ' +
        "Returns no candidate when nothing fits, and flags ambiguous when several fit equally (ask the user which).",
      inputSchema: {
        text: z.string().min(1).max(2000).describe("the user's words"),
        limit: z.number().int().min(1).max(20).optional().describe("at most this many candidates (default 5)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      try {
        const refs = await references();
        const executions: ExecutionLike[] = await mapLimit(refs, 8, async (r) => {
          const record = await store.getRecord(r.artifact_id).catch(() => undefined);
          return {
            id: await store.shortRef(r.artifact_id, { session }),
            tool_name: r.tool?.name ?? r.type,
            tool_args: r.tool?.args ?? {},
            ...(r.label === undefined ? {} : { label: r.label }),
            ...(record?.summary === undefined ? {} : { summary: record.summary }),
            ...(record ? { size_bytes: record.size_bytes } : {}),
            timestamp: r.created_at,
          };
        });
        const result = resolveReferences(args.text, executions, { limit: args.limit ?? 5 });
        const byRef = new Map(refs.map((r, i) => [executions[i]!.id, r.artifact_id]));
        const candidates = result.candidates.map((c) => ({
          artifact_reference: c.id,
          uri: resourceUri(byRef.get(c.id)!),
          score: Number(c.score.toFixed(3)),
          reasons: c.reasons,
        }));
        const text =
          candidates.length === 0
            ? `no artifact in session ${session} matches ${JSON.stringify(args.text)}`
            : [
                ...candidates.map((c) => `${c.artifact_reference}  score ${c.score}  ${c.reasons.join("; ")}`),
                ...(result.ambiguous
                  ? ["ambiguous: several different artifacts fit equally well; ask the user which one"]
                  : []),
                `Read one with artifacts_get {"ref":"${candidates[0]!.artifact_reference}","selector":{"mode":"headtail"}}`,
              ].join("\n");
        const links = await mapLimit(candidates, 4, async (c) =>
          resourceLink(await store.getRecord(byRef.get(c.artifact_reference)!), c.artifact_reference),
        );
        return {
          content: [{ type: "text", text }, ...links],
          structuredContent: { candidates, ambiguous: result.ambiguous },
        };
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  async function readResource(uri: URL): Promise<ReadResourceResult> {
    try {
      const parsed = parseResourceUri(uri.href);
      const id = await store.resolve(parsed.ref, { session });
      const record = await store.getRecord(id, { session });
      const canonical = resourceUri(id);
      if (parsed.selector !== undefined) {
        const selector =
          parsed.selector.maxChars !== undefined && parsed.selector.maxChars > maxChars
            ? { ...parsed.selector, maxChars }
            : parsed.selector;
        const chunked = await store.chunks(id, { session });
        const selection =
          chunked === undefined
            ? applySelector(await store.getText(id, { session }), selector, { defaultMaxChars: maxChars })
            : await applySelectorToChunks(chunked, selector, { defaultMaxChars: maxChars });
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: "text/plain",
              text: selection.text,
              _meta: {
                artifact: canonical,
                truncated: selection.truncated,
                total_lines: selection.total_lines,
                ...(selection.omitted ? { omitted: selection.omitted } : {}),
              },
            },
          ],
        };
      }
      const bytes = await store.get(id, { session });
      const text = decodeUtf8(bytes);
      const mimeType = record.mime ?? (text === undefined ? "application/octet-stream" : "text/plain");
      return {
        contents: [
          text === undefined
            ? { uri: canonical, mimeType, blob: Buffer.from(bytes).toString("base64") }
            : { uri: canonical, mimeType, text },
        ],
      };
    } catch (error) {
      return toMcpError(error);
    }
  }

  async function listResources(): Promise<{ resources: Resource[] }> {
    const refs = await references();
    const resources = await mapLimit(refs, 8, async (r): Promise<Resource> => {
      const record = await store.getRecord(r.artifact_id).catch(() => undefined);
      const shortRef = await store.shortRef(r.artifact_id, { session });
      return {
        uri: resourceUri(r.artifact_id),
        name: shortRef,
        ...(r.label ? { title: r.label } : {}),
        ...(record?.summary ? { description: record.summary } : {}),
        ...(record?.mime ? { mimeType: record.mime } : {}),
        ...(record ? { size: record.size_bytes } : {}),
      };
    });
    return { resources };
  }

  server.registerResource(
    "artifact",
    new ResourceTemplate(RESOURCE_TEMPLATE, { list: listResources }),
    { title: "Artifact", description: `One artifact of session ${session}, whole (as stored).` },
    (uri) => readResource(uri),
  );
  // Listed for discovery; reads of these URIs are answered by the template above (it matches the query too).
  server.registerResource(
    "artifact-selection",
    new ResourceTemplate(SELECTION_TEMPLATE, { list: undefined }),
    {
      title: "Part of an artifact",
      description: `A bounded part of an artifact (at most ${maxChars} chars): headtail, grep, range or jsonpath.`,
      mimeType: "text/plain",
    },
    (uri) => readResource(uri),
  );
  return server;
}
