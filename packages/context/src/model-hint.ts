import { DEFAULT_FETCH_MAX_CHARS, type ArtifactRef } from "@artifact-refs/schema";

export const ARTIFACTS_GET_TOOL_NAME = "artifacts_get";

/** What the model sees instead of an externalized tool result (docs/ARCHITECTURE.md §oversized, plus preview). */
export interface ModelHint {
  artifact_reference: string;
  summary: string;
  preview?: string;
  hint: string;
  size_bytes: number;
  lines?: number;
  label?: string;
  /** Kinds of secrets replaced before storing. */
  redacted?: string[];
}

export interface HintExtras {
  preview?: string | undefined;
  lines?: number | undefined;
  label?: string | undefined;
  redactions?: string[] | undefined;
  fetchMaxChars?: number | undefined;
}

/** The instruction that tells the model exactly how to call artifacts_get for this reference. */
export function fetchHint(
  ref: Pick<ArtifactRef, "short_ref" | "mime" | "payload">,
  fetchMaxChars = DEFAULT_FETCH_MAX_CHARS,
): string {
  const json = ref.payload === "json" || /json/.test(ref.mime ?? "");
  const example = json
    ? `{"ref":"${ref.short_ref}","selector":{"mode":"jsonpath","expr":"$.items[0:5]"}}`
    : `{"ref":"${ref.short_ref}","selector":{"mode":"grep","pattern":"error|fail","ignoreCase":true,"context":2}}`;
  return (
    `Stored as ${ref.short_ref}; not in the prompt. To read part of it, call ${ARTIFACTS_GET_TOOL_NAME} with ${example}` +
    ` or {"ref":"${ref.short_ref}","selector":{"mode":"range","start":1,"end":120}}` +
    ` (modes: headtail, grep, range, jsonpath; at most ${fetchMaxChars} chars per call).`
  );
}

/** Builds the model-facing object for a reference. Deterministic: same inputs, same bytes. */
export function modelHintFor(ref: ArtifactRef, extras: HintExtras = {}): ModelHint {
  return {
    artifact_reference: ref.short_ref,
    summary: ref.summary ?? "",
    ...(extras.preview ? { preview: extras.preview } : {}),
    hint: fetchHint(ref, extras.fetchMaxChars),
    size_bytes: ref.size_bytes,
    ...(extras.lines === undefined ? {} : { lines: extras.lines }),
    ...(extras.label ? { label: extras.label } : {}),
    ...(extras.redactions && extras.redactions.length > 0 ? { redacted: extras.redactions } : {}),
  };
}

/** The tool-message content a model sees for a reference (the hint as JSON). */
export function renderModelHint(hint: ModelHint): string {
  return JSON.stringify(hint);
}
