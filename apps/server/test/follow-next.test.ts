// Following `next` over HTTP: GET /api/artifacts/:ref with the selector in the query string, built
// from the previous receipt's `next` exactly as the web UI's Next button builds it (every key as
// a query parameter); the parts rebuild the content or the full match list.
import { type FetchPart, followCases, followNext } from "@artifact-refs/tooling/testing/follow-next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_A, call, startHarness, type Harness } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The query string of a selector, as the web UI's Next button sends it. */
export function selectorQuery(selector: Record<string, unknown>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(selector)) q.set(k, String(v));
  return q;
}

describe("GET /api/artifacts/:ref follows next to the end", () => {
  for (const c of followCases()) {
    it(c.name, async () => {
      const stash = await call(
        `${h.url}/api/artifacts?session=sess-a&mime=${encodeURIComponent(c.mime)}&label=${encodeURIComponent(c.name)}`,
        { method: "POST", token: TOKEN_A, headers: { "content-type": "text/plain" }, body: c.content },
      );
      expect(stash.status).toBe(201);
      const fetch: FetchPart = async (selector) => {
        const q = selectorQuery(selector);
        q.set("session", "sess-a");
        const r = await call(`${h.url}/api/artifacts/${stash.json.short_ref}?${q}`, { token: TOKEN_A });
        expect(r.status, r.text.slice(0, 300)).toBe(200);
        expect(r.json.text.length).toBeLessThanOrEqual(8_000);
        return { text: r.json.text, next: r.json.next };
      };
      c.check(await followNext(fetch, c.first), c.content);
    });
  }
});
