import { countLines } from "./payload.js";

export interface PreviewInput {
  mime: string;
  label?: string;
  /** Chars of preview wanted. */
  maxChars: number;
}

export interface ContentPreview {
  /** One line: what it is and how big (≤ 200 chars). */
  summary: string;
  /** A short structural excerpt (≤ maxChars). */
  preview: string;
}

/** Builds the summary and preview the model sees next to a reference. */
export type PreviewFunction = (text: string, input: PreviewInput) => ContentPreview;

function fold(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `JSON array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 8).join(", ");
    return `JSON object with ${keys.length} key${keys.length === 1 ? "" : "s"} (${shown}${keys.length > 8 ? ", …" : ""})`;
  }
  return `JSON ${typeof value}`;
}

/**
 * Default preview: JSON shape for JSON, title for HTML, else the first lines and the
 * last line (head/tail), cut to maxChars. Deterministic.
 */
export const defaultPreview: PreviewFunction = (text, { mime, maxChars }) => {
  const lines = countLines(text);
  const size = `${lines} line${lines === 1 ? "" : "s"}, ${text.length} chars`;
  let kind = "text";
  if (/json/.test(mime)) {
    try {
      kind = describeJson(JSON.parse(text));
    } catch {
      kind = "JSON text";
    }
  } else if (/html/.test(mime)) {
    const title = /<title[^>]*>([^<]{0,120})/i.exec(text)?.[1];
    kind = title ? `HTML page "${fold(title)}"` : "HTML page";
  } else if (/pdf/.test(mime)) kind = "PDF text";
  const firstLine = fold(text.slice(0, 400).split("\n").find((l) => l.trim() !== "") ?? "");
  let summary = `${kind}, ${size}${firstLine && kind === "text" ? `: ${firstLine}` : ""}`;
  if (summary.length > 200) summary = `${summary.slice(0, 199)}…`;
  if (maxChars <= 0) return { summary, preview: "" };
  if (text.length <= maxChars) return { summary, preview: text };
  const all = text.split("\n");
  const tail = all.length > 1 ? all[all.length - 1] === "" ? all[all.length - 2]! : all[all.length - 1]! : "";
  const tailPart = tail.length > 0 && tail.length < maxChars / 3 ? tail : "";
  const headBudget = maxChars - (tailPart ? tailPart.length + 5 : 2);
  const head = text.slice(0, Math.max(0, headBudget));
  return { summary, preview: tailPart ? `${head}\n…\n${tailPart}` : `${head}…` };
};
