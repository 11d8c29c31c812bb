import { fetchHint } from "@artifact-refs/context";
import type { ArtifactRecord } from "@artifact-refs/schema";
import { resourceUri } from "./uri.js";

/** A resource_link content item (MCP 2025-06-18). */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface TextContent {
  type: "text";
  text: string;
}

export type ToolContent = TextContent | ResourceLinkContent;

/** The resource_link for an artifact: its URI, short ref as name, label, summary, mime and size. */
export function resourceLink(record: ArtifactRecord, shortRef: string): ResourceLinkContent {
  return {
    type: "resource_link",
    uri: resourceUri(record.artifact_id),
    name: shortRef,
    ...(record.label ? { title: record.label } : {}),
    ...(record.summary ? { description: record.summary } : {}),
    ...(record.mime ? { mimeType: record.mime } : {}),
    size: record.size_bytes,
  };
}

/**
 * The plain-text fallback that goes with every resource_link (many clients drop links):
 * short ref, size, summary and exactly how to fetch a part.
 */
export function fallbackText(record: ArtifactRecord, shortRef: string, fetchMaxChars: number): string {
  const lines = [
    `${shortRef}${record.label ? ` (${record.label})` : ""}: ${record.size_bytes} bytes${record.mime ? `, ${record.mime}` : ""}`,
    ...(record.summary ? [`summary: ${record.summary}`] : []),
    fetchHint({ short_ref: shortRef, ...(record.mime ? { mime: record.mime } : {}), payload: "text" }, fetchMaxChars),
    `Or read the resource ${resourceUri(record.artifact_id)} (add ?mode=grep&pattern=… or ?mode=range&start=1&end=120 for a part).`,
  ];
  return lines.join("\n");
}
