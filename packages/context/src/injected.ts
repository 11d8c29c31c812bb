import { createHmac, randomBytes } from "node:crypto";

/**
 * Injected context (recall blocks, checkpoint bundles, artifacts_get answers, execution
 * context messages) is tagged so that it is never stashed again (no self-ingest, docs/ARCHITECTURE.md §sidecar).
 *
 * The tag is a first line carrying a MAC of the rest of the text under a key that only this
 * process knows, so text from outside (a workspace file, a tool's output, a transcript line
 * written by anyone) cannot forge it: a copied tag only matches the exact text the kit tagged.
 * Whether an entry is injected across processes is carried by structured data
 * (`details.injected` on transcript lines), never by text. Redaction runs on tagged text too.
 */
export const INJECTED_TAG_PREFIX = "<!-- aref:injected";
/** @deprecated the bare tag is no longer recognised (anyone could write it); kept for readers of old transcripts. */
export const INJECTED_TAG = "<!-- aref:injected -->";

const KEY = randomBytes(32);
const TAG_RE = /^<!-- aref:injected mac=([0-9a-f]{32}) -->\n/;

const macOf = (body: string): string => createHmac("sha256", KEY).update(body, "utf8").digest("hex").slice(0, 32);

/** Prefixes `text` with the injected tag (idempotent). */
export function tagInjected(text: string): string {
  return isInjected(text) ? text : `${INJECTED_TAG_PREFIX} mac=${macOf(text)} -->\n${text}`;
}

/** True when `text` carries a tag this process produced for exactly this text. */
export function isInjected(text: string): boolean {
  if (!text.startsWith(INJECTED_TAG_PREFIX)) return false;
  const match = TAG_RE.exec(text);
  return match !== null && match[1] === macOf(text.slice(match[0].length));
}

/** The text without its injected tag (a tag of any form on the first line, forged or not). */
export function stripInjectedTag(text: string): string {
  const match = /^<!-- aref:injected(?: mac=[0-9a-f]{32})? -->\n?/.exec(text);
  return match === null ? text : text.slice(match[0].length);
}
