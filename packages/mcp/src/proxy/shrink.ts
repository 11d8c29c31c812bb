import { fetchHint, type SessionRefs } from "@artifact-refs/context";
import type { ArtifactRecord } from "@artifact-refs/schema";
import { resourceLink } from "../content.js";
import { resourceUri } from "../uri.js";

/** One content item of a tools/call result, as the upstream sent it (unknown fields kept). */
type Item = Record<string, unknown> & { type?: unknown };

export interface ShrinkCall {
  /** The upstream tool's name. */
  tool: string;
  /** Its arguments (recorded with the stored artifact, redacted). */
  args?: Record<string, unknown> | undefined;
  /** The JSON-RPC id of the call (string form), recorded as the call id. */
  callId: string;
  /**
   * Whether the tool declares an `outputSchema` (from the upstream's tools/list). Then its
   * structuredContent always passes through unchanged, whatever its size: the MCP spec says a
   * server MUST return structured results conforming to the schema, and the official client
   * rejects a result of such a tool without one. Only the content items are shrunk.
   */
  outputSchema?: boolean;
}

export interface ShrinkOutcome {
  /** The result the client gets: the upstream's own object when nothing was over the thresholds. */
  result: Record<string, unknown>;
  /** How many items were stored and replaced by a link. */
  stored: number;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** The plain-text line(s) that go with a stored item: what it was, where it is, how to read more. */
function linkText(
  call: ShrinkCall,
  what: string,
  record: ArtifactRecord,
  shortRef: string,
  fetchMaxChars: number,
  text: boolean,
): string {
  const uri = resourceUri(record.artifact_id);
  const head = `[artifact-refs] ${what} from ${call.tool} was ${fmt(record.size_bytes)} bytes${record.mime ? ` (${record.mime})` : ""}: stored as ${shortRef} (${uri}), not shown here.`;
  if (!text) return `${head}\nIt is binary: read the resource ${uri} to get its bytes.`;
  return `${head}\n${fetchHint({ short_ref: shortRef, ...(record.mime ? { mime: record.mime } : {}), payload: "text" }, fetchMaxChars)}\nOr read the resource ${uri}.`;
}

/**
 * Replaces every item of an upstream tools/call result that is over the externalization
 * thresholds by a plain-text preview and a resource_link to the stored whole:
 * - text items (and embedded text resources): decided and stored by the session's externalizer
 *   (same thresholds, redaction and structural preview as every adapter);
 * - image, audio and embedded blob items whose base64 data is over the char threshold: the
 *   decoded bytes stored as is, with their mime type (never decoded as text);
 * - a structuredContent over the threshold: stored as JSON and linked; dropped from the result
 *   unless the tool declares an outputSchema (then it passes through unchanged, see ShrinkCall).
 * Error results (`isError`) are shrunk the same way (the flag is kept and the preview shows the
 * error text), so a huge stack trace does not flood the context either. Results with nothing
 * over the thresholds come back as the very same object, so they reach the client byte for byte.
 */
export async function shrinkToolResult(
  result: Record<string, unknown>,
  call: ShrinkCall,
  refs: SessionRefs,
  fetchMaxChars: number,
): Promise<ShrinkOutcome> {
  if (!Array.isArray(result.content)) return { result, stored: 0 };
  const isError = result.isError === true;
  const externalizer = refs.externalizer;
  const maxInline = externalizer.maxInlineChars(call.tool);
  const content = result.content as Item[];
  let stored = 0;

  const storeBytes = async (bytes: Uint8Array, mime: string | undefined, label: string) => {
    const put = await refs.store.put(bytes, {
      session: refs.session,
      type: "tool_output",
      producer: "executor",
      label,
      ...(mime ? { mime } : {}),
      tool: {
        name: call.tool,
        ...(call.args ? { args: externalizer.redactValue(call.args).value as Record<string, unknown> } : {}),
      },
    });
    stored++;
    return { record: put.record, shortRef: put.shortRef };
  };

  const storeText = async (text: string, mime: string | undefined, what: string): Promise<Item[] | undefined> => {
    const prepared = externalizer.prepare({
      session: refs.session,
      tool: call.tool,
      result: text,
      callId: call.callId,
      ...(call.args ? { args: call.args } : {}),
      ...(mime ? { mime } : {}),
    });
    if (!prepared.decision.externalize) return undefined;
    const stashed = await externalizer.stash(prepared);
    stored++;
    const record = await refs.store.getRecord(stashed.artifactRef.artifact_id, { session: refs.session });
    const lines = [linkText(call, what, record, stashed.artifactRef.short_ref, fetchMaxChars, true)];
    if (stashed.hint.summary) lines.push(`summary: ${stashed.hint.summary}`);
    if (stashed.hint.preview) lines.push(`preview:\n${stashed.hint.preview}`);
    if (stashed.hint.redacted) lines.push(`secrets replaced before storing: ${stashed.hint.redacted.join(", ")}`);
    return [{ type: "text", text: lines.join("\n") }, { ...resourceLink(record, stashed.artifactRef.short_ref) }];
  };

  const storeBase64 = async (data: string, mime: string | undefined, what: string): Promise<Item[]> => {
    const { record, shortRef } = await storeBytes(Buffer.from(data, "base64"), mime, `${call.tool} ${what}`);
    return [
      { type: "text", text: linkText(call, what, record, shortRef, fetchMaxChars, false) },
      { ...resourceLink(record, shortRef) },
    ];
  };

  const out: Item[] = [];
  for (const [index, item] of content.entries()) {
    const whole = isError ? "the error result" : "the result";
    const what = content.length === 1 ? whole : `item ${index + 1} of ${whole}`;
    let replaced: Item[] | undefined;
    if (item.type === "text" && typeof item.text === "string") {
      replaced = await storeText(item.text, undefined, what);
    } else if (
      (item.type === "image" || item.type === "audio") &&
      typeof item.data === "string" &&
      item.data.length > maxInline
    ) {
      replaced = await storeBase64(
        item.data,
        typeof item.mimeType === "string" ? item.mimeType : undefined,
        `${what} (${item.type})`,
      );
    } else if (item.type === "resource" && item.resource !== null && typeof item.resource === "object") {
      const resource = item.resource as Record<string, unknown>;
      const mime = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      const label = `${what} (resource ${String(resource.uri)})`;
      if (typeof resource.text === "string") replaced = await storeText(resource.text, mime, label);
      else if (typeof resource.blob === "string" && resource.blob.length > maxInline)
        replaced = await storeBase64(resource.blob, mime, label);
    }
    out.push(...(replaced ?? [item]));
  }

  let structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    if (json.length > maxInline) {
      const { record, shortRef } = await storeBytes(
        new TextEncoder().encode(json),
        "application/json",
        `${call.tool} structuredContent`,
      );
      out.push(
        { type: "text", text: linkText(call, "the structured content", record, shortRef, fetchMaxChars, true) },
        { ...resourceLink(record, shortRef) },
      );
      if (call.outputSchema !== true) structured = undefined;
    }
  }
  if (stored === 0) return { result, stored: 0 };
  const { structuredContent: _dropped, ...rest } = result;
  return {
    result: { ...rest, content: out, ...(structured === undefined ? {} : { structuredContent: structured }) },
    stored,
  };
}
