import {
  ArefError,
  type ArtifactId,
  SELECTOR_FIELDS,
  type Selector,
  SelectorFieldsSchema,
} from "@artifact-refs/schema";
import { z } from "zod";
import { parseSelector } from "@artifact-refs/resolve";

/** Scheme and host of artifact resource URIs: `aref://sha256/<64 hex>`. */
export const RESOURCE_URI_PREFIX = "aref://sha256/";
/** The plain resource template (one artifact, whole content). */
export const RESOURCE_TEMPLATE = `${RESOURCE_URI_PREFIX}{hex}`;
/** Selector parameters a resource URI may carry (a bounded part of the artifact). */
export const SELECTOR_QUERY_KEYS = ["mode", ...SELECTOR_FIELDS] as const;
/** The selection template: `aref://sha256/{hex}{?mode,pattern,…}`. */
export const SELECTION_TEMPLATE = `${RESOURCE_URI_PREFIX}{hex}{?${SELECTOR_QUERY_KEYS.join(",")}}`;

/** The fields whose values are numbers (a query string carries text). */
const NUMERIC = new Set<string>(
  SELECTOR_FIELDS.filter((f) => SelectorFieldsSchema.shape[f].unwrap() instanceof z.ZodNumber),
);

export function resourceUri(id: ArtifactId): string {
  return `${RESOURCE_URI_PREFIX}${id}`;
}

export interface ParsedResourceUri {
  /** The hex after `sha256/`: a full id or a prefix of 12+ chars (resolved within the session). */
  ref: string;
  selector?: Selector;
}

/** Parses `aref://sha256/<hex>[?mode=…]`; INVALID_HANDLE / INVALID_SELECTOR on bad input. */
export function parseResourceUri(uri: string): ParsedResourceUri {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ArefError("INVALID_HANDLE", `${JSON.stringify(uri.slice(0, 80))} is not a URI`, {
      hint: `use ${RESOURCE_URI_PREFIX}<64 hex>`,
    });
  }
  const hex = url.pathname.replace(/^\//, "");
  if (url.protocol !== "aref:" || url.host !== "sha256" || !/^[0-9a-f]{12,64}$/.test(hex)) {
    throw new ArefError("INVALID_HANDLE", `${JSON.stringify(uri.slice(0, 80))} is not an artifact URI`, {
      hint: `use ${RESOURCE_URI_PREFIX}<64 lowercase hex> (list them with resources/list)`,
    });
  }
  const params = [...url.searchParams.entries()];
  if (params.length === 0) return { ref: hex };
  const raw: Record<string, unknown> = {};
  for (const [key, value] of params) {
    if (!(SELECTOR_QUERY_KEYS as readonly string[]).includes(key)) {
      throw new ArefError(
        "INVALID_SELECTOR",
        `unknown selector parameter ${JSON.stringify(key)} in ${uri.slice(0, 120)}`,
        {
          hint: `use ${SELECTOR_QUERY_KEYS.join(", ")}`,
        },
      );
    }
    raw[key] =
      NUMERIC.has(key) && /^\d+$/.test(value)
        ? Number(value)
        : key === "ignoreCase"
          ? value === "true" || value === "1"
          : value;
  }
  return { ref: hex, selector: parseSelector({ mode: "headtail", ...raw }) };
}
