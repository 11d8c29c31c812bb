// The sentence-embedding model (real weights from node_modules, offline) as the semantic signal, on a
// session written for this test (no sentence of the reference data sets).
import { ArefError } from "@artifact-refs/schema";
import { type ExecutionLike, resolveReferences } from "@artifact-refs/resolve";
import { beforeAll, describe, expect, it } from "vitest";
import { type Embedder, SemanticResolver, loadEmbedder } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "web_search",
    tool_args: { query: "sourdough starter feeding schedule" },
    summary:
      "5 results: feed the starter twice a day with equal weights of flour and water; discard half before feeding",
    result_type: "success",
  },
  {
    id: "w2",
    tool_name: "read_file",
    tool_args: { path: "docs/release.md" },
    summary: "Steps to publish the mobile app to the App Store and Google Play: bump version, sign the build, upload",
    result_type: "success",
  },
  {
    id: "w3",
    tool_name: "sql_query",
    tool_args: { query: "SELECT plan, COUNT(*) FROM cancellations GROUP BY plan" },
    summary: "3 rows: basic 412, pro 97, team 12",
    result_type: "success",
  },
  {
    id: "w4",
    tool_name: "fetch_url",
    tool_args: { url: "https://status.example.com" },
    summary: "All systems operational; last incident: database failover on March 3",
    result_type: "success",
  },
];

let embedder: Embedder;
let calls: string[][];
let resolver: SemanticResolver;
beforeAll(async () => {
  const model = await loadEmbedder();
  calls = [];
  // The real model, with the texts it is asked for recorded (to see the cache work).
  embedder = {
    embed: (texts) => {
      calls.push(texts);
      return model.embed(texts);
    },
  };
  resolver = new SemanticResolver(embedder);
}, 60_000);

describe("SemanticResolver (Universal Sentence Encoder lite)", () => {
  it("answers a paraphrase that shares no word with the records, with the similarities as the reason", async () => {
    const text = "which one explained how to ship the phone application to users?";
    expect(resolveReferences(text, session).candidates).toEqual([]);
    const r = await resolver.resolve(text, session);
    expect(r.candidates.map((c) => c.id)).toEqual(["w2"]);
    expect(r.candidates[0]!.reasons[0]).toMatch(/^semantic: 0\.\d\d vs 0\.\d\d$/);
  });

  it("a general request stays unanswered even when one record is similar enough and clearly ahead", async () => {
    const text = "write a short poem about shipping a phone application to users";
    const semantic = await resolver.similarities(text, session);
    // The same similarities answer a message that is not general and finds nothing lexically: they pass the thresholds.
    const paraphrase = "which one explained how to ship the phone application to users?";
    expect(resolveReferences(paraphrase, session, { semantic }).candidates).toHaveLength(1);
    expect((await resolver.resolve(text, session)).candidates).toEqual([]);
  });

  it("general-knowledge questions stay unanswered with the model on", async () => {
    for (const text of [
      "what's the capital of Australia?",
      "what's the difference between baking soda and baking powder?",
      "how do I keep a bread culture alive in general?",
    ])
      expect((await resolver.resolve(text, session)).candidates).toEqual([]);
  });

  it("a message lexical signals answer resolves exactly as without the model, and embeds nothing", async () => {
    const before = calls.length;
    for (const text of ["the status page", "the cancellations query", "the first search", "that last one"]) {
      const plain = resolveReferences(text, session);
      expect(plain.candidates.length).toBeGreaterThan(0);
      expect(await resolver.resolve(text, session)).toEqual(plain);
    }
    expect(calls.length).toBe(before);
  });

  it("embeds each execution text once (cached), and respects `after`", async () => {
    const fresh = new SemanticResolver(embedder);
    const before = calls.length;
    await fresh.similarities("anything about subscriptions ending?", session);
    await fresh.similarities("anything about bread?", session);
    const asked = calls.slice(before).flat();
    expect(asked.length).toBe(session.length + 2);
    const early = await fresh.similarities("anything about bread?", session, "w2");
    expect([...early.keys()]).toEqual(["w1", "w2"]);
  });

  it("bad input: an empty message is INVALID_INPUT, an unknown `after` is NOT_FOUND, as without the model", async () => {
    await expect(resolver.resolve("  ", session)).rejects.toBeInstanceOf(ArefError);
    await expect(resolver.resolve("the status page", session, { after: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      resolver.resolve("the status page", [session[0]!, { ...session[1]!, id: "w1" }]),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
