import { clip, fmtInt, fold } from "../text.js";
import type { RawPreview } from "./types.js";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** Visible text of an HTML document: scripts, styles, comments and tags removed, blocks on lines. */
export function visibleText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr|\/section|\/article|\/header|\/footer|\/title)\b[^>]*>/gi, "\n")
      .replace(/<[^>]+>/g, " "),
  )
    .split("\n")
    .map((l) => fold(l))
    .filter((l) => l.length > 0)
    .join("\n");
}

/** HTML: the title, headings, link count and the visible text. */
export function previewHtml(text: string, maxChars: number): RawPreview {
  const title = fold(decodeEntities(/<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? ""));
  const headings = [...text.matchAll(/<h([1-3])\b[^>]*>([\s\S]*?)<\/h\1>/gi)]
    .map((m) => `${"#".repeat(Number(m[1]))} ${fold(decodeEntities(m[2]!.replace(/<[^>]+>/g, " ")))}`)
    .filter((h) => h.length > 2);
  const links = (text.match(/<a\s[^>]*href=/gi) ?? []).length;
  const body = visibleText(text);
  const firstText = body.split("\n").find((l) => l !== title && l.length > 20) ?? body.split("\n")[0] ?? "";
  const summary = `HTML page${title ? ` "${clip(title, 120)}"` : ""}: ${fmtInt(body.length)} chars of text, ${fmtInt(headings.length)} headings, ${fmtInt(links)} links${firstText ? `; ${clip(firstText, 200)}` : ""}`;
  const parts = [
    title ? `title: ${title}` : undefined,
    headings.length ? `headings:\n${headings.slice(0, 20).join("\n")}` : undefined,
    `text:\n${body}`,
  ].filter(Boolean);
  return {
    summary,
    preview: clip(parts.join("\n\n"), maxChars),
    stats: { chars: text.length, text_chars: body.length, headings: headings.length, links },
  };
}
