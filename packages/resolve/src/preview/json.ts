import { clip, fmtInt } from "../text.js";
import { isJson } from "./detect.js";
import type { RawPreview } from "./types.js";

/** JSON: the shape (keys with types, array lengths), a sample, and counts. JSON Lines too. */
export function previewJson(text: string, maxChars: number): RawPreview {
  if (!isJson(text)) {
    const rows = text.split("\n").filter((x) => x.trim().length > 0);
    const first = safeParse(rows[0] ?? "null");
    const shape = describeShape(first, 2);
    return {
      summary: `JSON Lines, ${fmtInt(rows.length)} records; first: ${shape}`,
      preview: clip(
        `${fmtInt(rows.length)} records, each like:\n${shapeOutline(first, maxChars)}\n\nfirst record:\n${JSON.stringify(first)}`,
        maxChars,
      ),
      stats: { records: rows.length, chars: text.length },
    };
  }
  const value: unknown = JSON.parse(text);
  const stats: Record<string, number> = { chars: text.length, depth: depthOf(value, 0) };
  if (Array.isArray(value)) stats.items = value.length;
  else if (isObject(value)) stats.keys = Object.keys(value).length;
  const summary = `JSON ${describeShape(value, 2)}`;
  const outline = shapeOutline(value, Math.floor(maxChars * 0.6));
  const sample = sampleOf(value, Math.max(80, maxChars - outline.length - 20));
  return { summary, preview: clip(`${outline}\n\nsample:\n${sample}`, maxChars), stats };
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `array[${fmtInt(v.length)}]`;
  if (typeof v === "object") return `object{${fmtInt(Object.keys(v as object).length)}}`;
  return typeof v;
}

/** "object, 4 keys: data (array[20] of object{6}), has_more (boolean), ..." */
export function describeShape(v: unknown, depth: number): string {
  if (Array.isArray(v)) {
    const inner = v.length > 0 ? ` of ${depth > 0 ? itemShape(v) : typeName(v[0])}` : "";
    return `array, ${fmtInt(v.length)} item${v.length === 1 ? "" : "s"}${inner}`;
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    const parts = keys.slice(0, 12).map((k) => `${k} (${typeName(v[k])})`);
    return `object, ${fmtInt(keys.length)} key${keys.length === 1 ? "" : "s"}${keys.length ? `: ${parts.join(", ")}${keys.length > 12 ? ", …" : ""}` : ""}`;
  }
  return `${typeName(v)}: ${clip(JSON.stringify(v) ?? "", 80)}`;
}

function itemShape(items: unknown[]): string {
  const first = items[0];
  if (isObject(first)) {
    const keys = Object.keys(first);
    return `objects with ${keys.slice(0, 8).join(", ")}${keys.length > 8 ? ", …" : ""}`;
  }
  const types = new Set(items.slice(0, 50).map(typeName));
  return [...types].slice(0, 3).join(" | ");
}

/** Indented outline of keys and types, two levels deep, within `max` chars. */
function shapeOutline(v: unknown, max: number): string {
  const lines: string[] = [];
  const walk = (node: unknown, name: string, indent: string, level: number) => {
    lines.push(`${indent}${name}${name ? ": " : ""}${typeName(node)}`);
    if (level >= 2) return;
    if (Array.isArray(node) && node.length > 0) walk(node[0], "[0]", `${indent}  `, level + 1);
    else if (isObject(node)) {
      const keys = Object.keys(node);
      for (const k of keys.slice(0, 25)) walk(node[k], k, `${indent}  `, level + 1);
      if (keys.length > 25) lines.push(`${indent}  … ${fmtInt(keys.length - 25)} more keys`);
    }
  };
  walk(v, "", "", 0);
  return clip(lines.join("\n"), max);
}

function sampleOf(v: unknown, max: number): string {
  let sample: unknown = v;
  if (Array.isArray(v)) sample = v.slice(0, 2);
  else if (isObject(v)) {
    sample = Object.fromEntries(
      Object.entries(v)
        .slice(0, 12)
        .map(([k, x]) => [k, Array.isArray(x) ? x.slice(0, 1) : x]),
    );
  }
  return clip(JSON.stringify(sample) ?? "", max);
}

function depthOf(v: unknown, level: number): number {
  if (level > 64) return level;
  if (Array.isArray(v)) return v.slice(0, 100).reduce<number>((m, x) => Math.max(m, depthOf(x, level + 1)), level + 1);
  if (isObject(v))
    return Object.values(v)
      .slice(0, 100)
      .reduce<number>((m, x) => Math.max(m, depthOf(x, level + 1)), level + 1);
  return level;
}
