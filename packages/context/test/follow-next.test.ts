import { type FetchPart, followCases, followNext } from "@artifact-refs/tooling/testing/follow-next";
import { describe, expect, it } from "vitest";
import { ArtifactsGetTool, type ArtifactsGetAnswer } from "../src/index.js";
import { memoryStore } from "./helpers.js";

const session = "sess-follow";

/** Every key of a selector the tool hands out is one its advertised JSON schema lists, within its bounds. */
function expectAdvertised(tool: ArtifactsGetTool, selector: Record<string, unknown>): void {
  const schema = (tool.definition.parameters.properties as Record<string, { properties: Record<string, any> }>)
    .selector!;
  for (const [key, value] of Object.entries(selector)) {
    const prop = schema.properties[key];
    expect(prop, `selector key ${key} is not in the artifacts_get JSON schema`).toBeDefined();
    if (typeof value === "number") {
      if (prop.minimum !== undefined) expect(value).toBeGreaterThanOrEqual(prop.minimum);
      if (prop.maximum !== undefined) expect(value).toBeLessThanOrEqual(prop.maximum);
    }
  }
}

describe("artifacts_get follows next to the end", () => {
  for (const form of ["nested", "flat"] as const) {
    for (const c of followCases()) {
      it(`${c.name}, selector given ${form}`, async () => {
        const store = memoryStore();
        const put = await store.put(c.content, { session, mime: c.mime, label: c.name });
        // A loop limit that never answers: every part is a new selector anyway.
        const tool = new ArtifactsGetTool({ store, session });
        const fetch: FetchPart = async (selector) => {
          expectAdvertised(tool, selector);
          const args = form === "nested" ? { ref: put.shortRef, selector } : { ref: put.shortRef, ...selector };
          const answer = (await tool.call(args)) as ArtifactsGetAnswer;
          expect(answer.text.length).toBeLessThanOrEqual(8_000);
          return { text: answer.text, next: answer.next };
        };
        c.check(await followNext(fetch, c.first), c.content);
      });
    }
  }
});
