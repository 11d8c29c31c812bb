import { createHmac, randomBytes } from "node:crypto";
import { ArefError, hasErrorCode } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";

/**
 * Injected context (recall blocks, checkpoint bundles, artifacts_get answers, execution
 * context messages) is tagged so that it is never stashed again (no self-ingest, docs/ARCHITECTURE.md §sidecar).
 *
 * The tag is a first line carrying a MAC of the rest of the text under a secret key, so text from
 * outside (a workspace file, a tool's output, a transcript line written by anyone) cannot forge it:
 * a copied tag only matches the exact text the kit tagged. The key is, in order of precedence:
 * the one configured (`configureInjectedKey`, e.g. from `AREF_INJECTED_KEY`), the secret held in
 * the store (`useStoreInjectedKey`: created once with put-if-absent, read by every instance on
 * that store, so a tag written by one server instance verifies on another), or a random key of
 * this process. A tag made under any key this process has used or loaded verifies. Whether an
 * entry is injected across processes is carried by structured data (`details.injected` on
 * transcript lines), never by text. Redaction runs on tagged text too.
 */
export const INJECTED_TAG_PREFIX = "<!-- aref:injected";
/** @deprecated the bare tag is no longer recognised (anyone could write it); kept for readers of old transcripts. */
export const INJECTED_TAG = "<!-- aref:injected -->";
/** Where the store keeps the injected-tag secret (32 random bytes, written once, never rewritten). */
export const INJECTED_KEY_STORE_KEY = "secrets/injected-tag.key";
/** Shortest accepted configured key, in bytes. */
export const MIN_INJECTED_KEY_BYTES = 16;

const TAG_RE = /^<!-- aref:injected mac=([0-9a-f]{32}) -->\n/;

/** The key new tags are made with, and every key a tag may verify under (the current one first). */
let current: Buffer = randomBytes(32);
let configured = false;
const known: Buffer[] = [current];

function adopt(key: Buffer): void {
  current = key;
  if (!known.some((k) => k.equals(key))) known.unshift(key);
}

/**
 * Sets the key tags are made with from configuration (a secret of at least 16 bytes; a string is
 * taken as UTF-8). It wins over the store's secret. Tags made before under other keys still verify.
 */
export function configureInjectedKey(secret: string | Uint8Array): void {
  const key = Buffer.from(typeof secret === "string" ? Buffer.from(secret, "utf8") : secret);
  if (key.length < MIN_INJECTED_KEY_BYTES)
    throw new ArefError(
      "CONFIG_INVALID",
      `the injected-tag key must be at least ${MIN_INJECTED_KEY_BYTES} bytes, got ${key.length}`,
      { hint: "set a random secret, e.g. AREF_INJECTED_KEY=$(openssl rand -hex 32)" },
    );
  configured = true;
  adopt(key);
}

/**
 * Uses the injected-tag secret held in `store` (creating it on first use; concurrent first uses
 * agree: put-if-absent, then everyone reads the winner; a read-only store without one leaves the
 * key as it is). A configured key still wins for new tags, the store's key is then only accepted.
 * Returns whether the store's key is the one tags are made with.
 */
export async function useStoreInjectedKey(store: Pick<ArtifactStore, "driver">): Promise<boolean> {
  let readOnly = false;
  let created = false;
  try {
    ({ created } = await store.driver.putIfAbsent(INJECTED_KEY_STORE_KEY, randomBytes(32)));
  } catch (error) {
    if (!hasErrorCode(error, "READ_ONLY") && !hasErrorCode(error, "PERMISSION_DENIED")) throw error;
    readOnly = true; // a read-only store: use its secret if it has one
  }
  // On a backend without conditional writes (some S3-compatible servers), two instances starting at
  // the same instant can both "create" the secret, and the first to read may read its own before the
  // other's write lands. The last write is what stays: a creator reads it again once writes have
  // settled, so every instance ends on the same key (tags made before still verify here).
  if (created) setTimeout(() => void adoptStored(store).catch(() => {}), INJECTED_KEY_SETTLE_MS).unref();
  return adoptStored(store, readOnly);
}

/** How long after creating the store's secret an instance reads it again (see useStoreInjectedKey). */
const INJECTED_KEY_SETTLE_MS = 1_000;

async function adoptStored(store: Pick<ArtifactStore, "driver">, readOnly = false): Promise<boolean> {
  const stored = await store.driver.get(INJECTED_KEY_STORE_KEY);
  if (stored === undefined && readOnly) return false;
  if (stored === undefined || stored.length < MIN_INJECTED_KEY_BYTES)
    throw new ArefError(
      "CORRUPT_METADATA",
      `the store's injected-tag secret ${INJECTED_KEY_STORE_KEY} is missing or shorter than ${MIN_INJECTED_KEY_BYTES} bytes`,
      {
        hint: `remove ${INJECTED_KEY_STORE_KEY} from the store (a new one is made; tags made under the old one stop verifying)`,
      },
    );
  const key = Buffer.from(stored);
  if (configured) {
    if (!known.some((k) => k.equals(key))) known.push(key);
    return false;
  }
  adopt(key);
  return true;
}

const macOf = (key: Buffer, body: string): string =>
  createHmac("sha256", key).update(body, "utf8").digest("hex").slice(0, 32);

/** Prefixes `text` with the injected tag (idempotent). */
export function tagInjected(text: string): string {
  return isInjected(text) ? text : `${INJECTED_TAG_PREFIX} mac=${macOf(current, text)} -->\n${text}`;
}

/** True when `text` carries a tag made for exactly this text under a key this process holds. */
export function isInjected(text: string): boolean {
  if (!text.startsWith(INJECTED_TAG_PREFIX)) return false;
  const match = TAG_RE.exec(text);
  if (match === null) return false;
  const body = text.slice(match[0].length);
  return known.some((key) => match[1] === macOf(key, body));
}

/** The text without its injected tag (a tag of any form on the first line, forged or not). */
export function stripInjectedTag(text: string): string {
  const match = /^<!-- aref:injected(?: mac=[0-9a-f]{32})? -->\n?/.exec(text);
  return match === null ? text : text.slice(match[0].length);
}
