// What every run of the scripted log turn (scripted-model.ts: read_log, artifacts_get, answer)
// must show, whichever SDK made the requests.
import { expect } from "vitest";
import type { Recorded } from "./fake-http.js";

/** The answer names the 4 failures; 3 requests, none carrying the 100 KB log; the second carries the ref. */
export function expectScriptedLogRun(answer: string, requests: Recorded[]): void {
  expect(answer).toBe("found 4 failures\n");
  expect(requests).toHaveLength(3);
  for (const r of requests) expect(r.raw).not.toContain("ok 1001 test/case-1001.test.ts");
  expect(requests[1]!.raw).toMatch(/art:[0-9a-f]{12,}/);
}
