export type PreviewKind = "json" | "log" | "test" | "code" | "html" | "csv" | "text" | "binary" | "empty";

export interface PreviewOptions {
  /** MIME type of the content, when known ("application/json", "text/csv", ...). */
  mime?: string | undefined;
  /** Label or file name ("src/app.ts", "GET /orders"); its extension helps pick the kind. */
  label?: string | undefined;
  /** Cap of the preview text (default 2,000 chars). The summary is always ≤ 500 chars. */
  maxChars?: number | undefined;
  /** Force a kind instead of detecting it. */
  kind?: PreviewKind | undefined;
}

export interface Preview {
  kind: PreviewKind;
  /** One or two lines, ≤ 500 chars, no LLM: what the content is and its key figures. */
  summary: string;
  /** A structural excerpt ≤ maxChars: shape, outline, error lines, header rows, head and tail. */
  preview: string;
  /** Counts behind the summary (lines, chars, errors, rows, keys, ...). */
  stats: Record<string, number>;
}

export const DEFAULT_PREVIEW_MAX_CHARS = 2_000;

/** What a kind-specific previewer returns before the common caps are applied. */
export interface RawPreview {
  summary: string;
  preview: string;
  stats: Record<string, number>;
}
