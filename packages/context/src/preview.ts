import { preview as structuralPreview } from "@artifact-refs/resolve";

export interface PreviewInput {
  mime: string;
  label?: string;
  /** Chars of preview wanted (0 = summary only). */
  maxChars: number;
}

export interface ContentPreview {
  /** What it is and its key figures (≤ 500 chars). */
  summary: string;
  /** A short structural excerpt (≤ maxChars). */
  preview: string;
}

/** Builds the summary and preview the model sees next to a reference. */
export type PreviewFunction = (text: string, input: PreviewInput) => ContentPreview;

/**
 * Default preview: the Resolution package's structural preview (JSON shape, log errors,
 * failing tests, code outline, HTML title, CSV header, text head/tail). Deterministic.
 */
export const defaultPreview: PreviewFunction = (text, { mime, label, maxChars }) => {
  const p = structuralPreview(text, { mime, ...(label ? { label } : {}), maxChars: Math.max(1, maxChars) });
  return { summary: p.summary, preview: maxChars <= 0 ? "" : p.preview };
};
