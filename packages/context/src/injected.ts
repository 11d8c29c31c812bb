/**
 * Injected context (recall blocks, checkpoint bundles, artifacts_get answers, execution
 * context messages) is tagged so that it is never stashed again (no self-ingest, seed 003).
 * The tag is a first line the externalizer and the migration recognise.
 */
export const INJECTED_TAG = "<!-- aref:injected -->";

/** Prefixes `text` with the injected tag (idempotent). */
export function tagInjected(text: string): string {
  return isInjected(text) ? text : `${INJECTED_TAG}\n${text}`;
}

/** True when `text` carries the injected tag. */
export function isInjected(text: string): boolean {
  return text.startsWith(INJECTED_TAG);
}

/** The text without its injected tag. */
export function stripInjectedTag(text: string): string {
  if (!isInjected(text)) return text;
  const rest = text.slice(INJECTED_TAG.length);
  return rest.startsWith("\n") ? rest.slice(1) : rest;
}
