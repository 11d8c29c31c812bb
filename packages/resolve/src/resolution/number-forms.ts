/**
 * One amount written two ways: "44.1k" and "44100", "10,000" and "10k", "1.5M" and "1500000". The plain digits of an
 * amount written with thousands separators or a k/M suffix, so a message and a record that write it differently meet
 * on one token.
 */
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)([km])?$/;

/** The plain digits of `word` ("44.1k" → "44100", "10,000" → "10000"); undefined when it is no such amount or is plain already. */
export function plainNumber(word: string): string | undefined {
  const m = AMOUNT.exec(word.toLowerCase());
  if (!m) return undefined;
  const digits = m[1]!.replace(/,/g, "");
  if (!m[2]) return digits === m[1] ? undefined : digits;
  const value = Number(digits) * (m[2] === "k" ? 1e3 : 1e6);
  return Number.isInteger(value) && value < 1e15 ? String(value) : undefined;
}

/** Amounts written with separators or a suffix in a text ("10,000 rows", "1.5M users", "2k"). */
export function amountsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?<![\p{L}\p{N}.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?([kKmM])?(?![\p{L}\p{N}])/gu,
  )) {
    const plain = plainNumber(`${m[1]}${m[2] ?? ""}`);
    if (plain) out.push(plain);
  }
  return out;
}
