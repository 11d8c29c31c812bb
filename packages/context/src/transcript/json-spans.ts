/**
 * Where things are in JSON text, without parsing it into values: lets the migration edit a
 * transcript line at the payload's span and leave every other byte as it was (big integers,
 * `1.0`, `__proto__` keys, key order, spacing). The text is assumed to be valid JSON (it was
 * parsed first). Iterative: deep nesting cannot overflow the stack.
 */

const WS = new Set([" ", "\t", "\n", "\r", "\uFEFF"]);

export function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i]!)) i++;
  return i;
}

/** `i` at a '"': the index just past the closing quote. */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i + 1;
  }
  return text.length;
}

/** The index just past the value starting at `i` (after whitespace). */
export function skipValue(text: string, i: number): number {
  i = skipWs(text, i);
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    while (i < text.length) {
      const d = text[i];
      if (d === '"') {
        i = skipString(text, i);
        continue;
      }
      if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !WS.has(text[i]!) && text[i] !== "," && text[i] !== "]" && text[i] !== "}") i++;
  return i;
}

export interface MemberSpan {
  key: string;
  valueStart: number;
  valueEnd: number;
}

/** The members of the object whose '{' is at `start` (after whitespace), and the index of its closing '}'. */
export function objectMembers(text: string, start: number): { members: MemberSpan[]; close: number } {
  let i = skipWs(text, start) + 1;
  const members: MemberSpan[] = [];
  for (;;) {
    i = skipWs(text, i);
    if (text[i] === "}" || i >= text.length) return { members, close: i };
    if (text[i] === ",") {
      i++;
      continue;
    }
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd) + 1; // past ':'
    const valueStart = skipWs(text, i);
    const valueEnd = skipValue(text, valueStart);
    members.push({ key, valueStart, valueEnd });
    i = valueEnd;
  }
}

/** The spans of the elements of the array whose '[' is at `start` (after whitespace). */
export function arrayElements(text: string, start: number): Array<{ start: number; end: number }> {
  let i = skipWs(text, start) + 1;
  const out: Array<{ start: number; end: number }> = [];
  for (;;) {
    i = skipWs(text, i);
    if (text[i] === "]" || i >= text.length) return out;
    if (text[i] === ",") {
      i++;
      continue;
    }
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = end;
  }
}

/**
 * The object text `text.slice(start, end)` with its `content` emptied and `details` merged with
 * `details` (new keys placed last, so they win like a spread), every other byte unchanged.
 */
export function editEntryObject(text: string, start: number, details: Record<string, unknown>): string {
  const { members, close } = objectMembers(text, start);
  const edits: Array<{ at: number; end: number; insert: string }> = [];
  for (const m of members) if (m.key === "content") edits.push({ at: m.valueStart, end: m.valueEnd, insert: '""' });
  const added = Object.entries(details).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const existing = [...members].reverse().find((m) => m.key === "details");
  if (existing !== undefined && text[existing.valueStart] === "{") {
    const inner = objectMembers(text, existing.valueStart);
    edits.push({
      at: inner.close,
      end: inner.close,
      insert: `${inner.members.length > 0 ? "," : ""}${added.join(",")}`,
    });
  } else if (existing !== undefined) {
    edits.push({ at: existing.valueStart, end: existing.valueEnd, insert: JSON.stringify(details) });
  } else {
    edits.push({ at: close, end: close, insert: `${members.length > 0 ? "," : ""}"details":{${added.join(",")}}` });
  }
  let out = text.slice(start, close + 1);
  for (const e of edits.sort((a, b) => b.at - a.at))
    out = out.slice(0, e.at - start) + e.insert + out.slice(e.end - start);
  return out;
}
