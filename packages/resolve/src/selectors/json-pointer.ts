import { ArefError } from "@artifact-refs/schema";

/** Parses an RFC 6901 JSON Pointer ("/a/b~1c/0") into reference tokens. */
export function parseJsonPointer(pointer: string): string[] {
  let p = pointer;
  // URI fragment form (#/a/b) as RFC 6901 section 6 allows.
  if (p.startsWith("#")) {
    try {
      p = decodeURIComponent(p.slice(1));
    } catch {
      throw invalidPointer(pointer, "bad percent-encoding in the URI fragment");
    }
  }
  if (p === "") return [];
  if (!p.startsWith("/")) throw invalidPointer(pointer, 'a JSON Pointer starts with "/"');
  return p
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw invalidPointer(pointer, `"~" must be followed by 0 or 1 (in "${token}")`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** Resolves a JSON Pointer; `found: false` when no value is there. */
export function resolveJsonPointer(doc: unknown, tokens: string[]): { found: boolean; value?: unknown } {
  let node: unknown = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false };
      const i = Number(token);
      if (i >= node.length) return { found: false };
      node = node[i];
    } else if (node !== null && typeof node === "object") {
      if (!Object.hasOwn(node, token)) return { found: false };
      node = (node as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: node };
}

/** Builds a JSON Pointer from path segments. */
export function toJsonPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Builds a normalized JSONPath ($['a'][0]) from path segments. */
export function toJsonPath(segments: ReadonlyArray<string | number>): string {
  return `$${segments.map((s) => (typeof s === "number" ? `[${s}]` : `['${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`)).join("")}`;
}

function invalidPointer(pointer: string, why: string): ArefError {
  return new ArefError("INVALID_SELECTOR", `invalid JSON Pointer ${JSON.stringify(pointer)}: ${why}`, {
    hint: 'write a JSONPath ($.a.b[0]) or a JSON Pointer (/a/b/0, with "~1" for "/" and "~0" for "~" in names)',
  });
}
