// A name written as one word is met by its head: a 5+ letter word that starts a name at least 4 letters longer
// ("kettle" → "kettlebrewd_2.0.1.tar.gz") refers to it. Sessions and wording of this test's own.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { isVariant } from "../src/resolution/tokens.js";

const session: ExecutionLike[] = [
  {
    id: "n1",
    tool_name: "fetch_url",
    tool_args: { url: "https://example.org/releases" },
    summary: "HTTP 200: kettlebrewd latest release 2.0.1, changelog mentions the new thermostat curve",
  },
  {
    id: "n2",
    tool_name: "execute_bash",
    tool_args: { command: "curl -LO https://example.org/dl/kettlebrewd_2.0.1.tar.gz" },
    summary: "saved 3.1 MB to disk",
  },
  {
    id: "n3",
    tool_name: "web_search",
    tool_args: { query: "home brewing mash temperature" },
    summary: "9 results: mash temperature charts, forum threads on thermostat drift",
  },
];

describe("the head of a name written as one word", () => {
  it("is a variant of the name (5+ letters, then 4+ more), not of a short or near-equal word", () => {
    expect(isVariant("kettle", "kettlebrewd")).toBe(true);
    expect(isVariant("kettle", "kettlebr")).toBe(false);
    expect(isVariant("kettle2", "kettle2brewd")).toBe(false);
  });
  it("answers the record that names it", () => {
    expect(resolveReferences("how big was the kettle tarball?", session).candidates[0]?.id).toBe("n2");
    expect(resolveReferences("the kettle one, which version was it?", session).candidates[0]?.id).toBe("n2");
  });
});
