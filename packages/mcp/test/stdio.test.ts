import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, bigLog, COLLIDING, fixture, type Fixture } from "./helpers.js";

const CAP = 4000;
let fx: Fixture;
let client: Client;
let listChanged = 0;
let stderr = "";

type Content = CallToolResult["content"][number];
const texts = (r: CallToolResult) =>
  r.content.filter((c): c is Extract<Content, { type: "text" }> => c.type === "text").map((c) => c.text);
const links = (r: CallToolResult) =>
  r.content.filter((c): c is Extract<Content, { type: "resource_link" }> => c.type === "resource_link");
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function get(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await call("artifacts_get", args);
  expect(r.isError, texts(r).join("\n")).toBeFalsy();
  return answerOf(r);
}
/** artifacts_get answers in plain text (the selected text first, then a line on what it was); the fields are in structuredContent. */
function answerOf(r: CallToolResult): Record<string, unknown> {
  expect(r.structuredContent).not.toHaveProperty("text");
  return { ...(r.structuredContent as Record<string, unknown>), text: texts(r)[0]! };
}

beforeAll(async () => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the package first (pnpm --filter @artifact-refs/mcp... build)`);
  fx = await fixture();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--store", fx.dir, "--session", "s1", "--max-chars", String(CAP), "--max-bytes", "524288"],
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: "aref-mcp-test", version: "1.0.0" });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fx?.cleanup();
});

describe("aref-mcp over stdio with the official client", () => {
  it("lists the four tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "artifacts_get",
      "artifacts_list",
      "artifacts_resolve",
      "artifacts_stash",
    ]);
    const getTool = tools.find((t) => t.name === "artifacts_get")!;
    expect(getTool.inputSchema.required).toEqual(["ref"]);
    expect(Object.keys(getTool.inputSchema.properties ?? {})).toEqual(["ref", "selector"]);
    expect(getTool.description).toContain(`at most ${CAP} chars`);
    expect(getTool.annotations?.readOnlyHint).toBe(true);
    expect(client.getInstructions()).toContain("art:<hex>");
  });

  it("artifacts_get: headtail by default, bounded, with a resource_link and a text fallback when more is left", async () => {
    const short = await fx.store.shortRef(fx.ids.log as never, { session: "s1" });
    const r = await call("artifacts_get", { ref: short });
    expect(texts(r)[1]).toMatch(
      /^\[artifacts_get: \d+ chars of art:[0-9a-f]+ \(npm test output\).*more is left\]\nleft out: .*\nnext part: call artifacts_get with \{"ref":"art:/,
    );
    const answer = answerOf(r) as {
      text: string;
      truncated: boolean;
      selector: { mode: string };
      artifact_reference: string;
      next?: unknown;
    };
    expect(answer.selector.mode).toBe("headtail");
    expect(answer.artifact_reference).toBe(short);
    expect(answer.truncated).toBe(true);
    expect(answer.text.length).toBeLessThanOrEqual(CAP);
    expect(answer.text).toContain("ok 1 test/case-1.test.ts");
    expect(answer.text).toContain("FAIL test/case-2000.test.ts");
    const [link] = links(r);
    expect(link).toMatchObject({
      type: "resource_link",
      uri: `aref://sha256/${fx.ids.log}`,
      name: short,
      mimeType: "text/plain",
      size: Buffer.byteLength(bigLog()),
    });
    // Every text the model sees stays small: the 100 KB log never crosses the wire.
    expect(JSON.stringify(r).length).toBeLessThan(CAP + 2500);
  });

  it("artifacts_get with grep, range and jsonpath selectors", async () => {
    const grep = await get({
      ref: `art:${fx.ids.log.slice(0, 12)}`,
      selector: { mode: "grep", pattern: "^FAIL", context: 0 },
    });
    expect((grep.text as string).match(/FAIL/g)).toHaveLength(4);
    expect(grep.text).toContain("case-1500.test.ts");
    const range = await get({ ref: fx.ids.log, selector: { mode: "range", start: 10, end: 12 } });
    expect(
      (range.text as string)
        .split("\n")
        .filter(Boolean)
        .map((l) => l.replace(/^\s*\d+[:|]?\s*/, "").slice(0, 5)),
    ).toEqual(["ok 10", "ok 11", "ok 12"]);
    const json = await get({
      ref: `aref:v1:sha256:${fx.ids.json}`,
      selector: { mode: "jsonpath", expr: "$.items[1].ok" },
    });
    expect(json.text).toContain("false");
    expect(json.text).not.toContain("demo");
    const flat = await get({ ref: fx.ids.json, selector: { mode: "jsonpath", expr: "/version" } });
    expect(flat.text).toContain("1.2.3");
  });

  it("an over-cap request is cut to the cap and says so", async () => {
    const answer = await get({ ref: fx.ids.log, selector: { mode: "range", start: 1, end: 2000, maxChars: 50_000 } });
    expect(answer.chars as number).toBeLessThanOrEqual(CAP);
    expect((answer.text as string).length).toBeLessThanOrEqual(CAP);
    expect(answer.note).toMatch(new RegExp(`over this tool's cap; returned at most ${CAP} chars`));
    expect(answer.truncated).toBe(true);
    expect(answer.next).toMatchObject({ mode: "range" });
  });

  it("errors: bad ref, unknown ref, another session's artifact, ambiguous ref, bad selector", async () => {
    const bad = await call("artifacts_get", { ref: "art:NOT-HEX" });
    expect(bad.isError).toBe(true);
    expect(texts(bad)[0]).toMatch(/^INVALID_HANDLE: /);
    const unknown = await call("artifacts_get", { ref: `art:${"0".repeat(12)}` });
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)[0]).toMatch(/^NOT_FOUND: no artifact matches art:000000000000 in session s1/);
    const foreign = await call("artifacts_get", { ref: fx.ids.other });
    expect(foreign.isError).toBe(true);
    expect(texts(foreign)[0]).toMatch(/^(NOT_FOUND|EXPIRED|UNKNOWN_SESSION): /);
    expect(fx.ids.a.slice(0, 12)).toBe(fx.ids.b.slice(0, 12));
    const ambiguous = await call("artifacts_get", { ref: `art:${fx.ids.a.slice(0, 12)}` });
    expect(ambiguous.isError).toBe(true);
    expect(texts(ambiguous)[0]).toContain("AMBIGUOUS_REF");
    expect(texts(ambiguous)[0]).toContain(`art:${fx.ids.a.slice(0, 13)}`);
    expect(texts(ambiguous)[0]).toContain(`art:${fx.ids.b.slice(0, 13)}`);
    expect(texts(ambiguous)[0]).toMatch(/hint: use more hex characters/);
    const selector = await call("artifacts_get", { ref: fx.ids.log, selector: { mode: "grep" } });
    expect(selector.isError).toBe(true);
    expect(texts(selector)[0]).toMatch(/^INVALID_SELECTOR: /);
    const regex = await call("artifacts_get", { ref: fx.ids.log, selector: { mode: "grep", pattern: "(unclosed" } });
    expect(regex.isError).toBe(true);
    const missing = await client.callTool({ name: "artifacts_get", arguments: {} });
    expect(missing.isError).toBe(true);
  });

  it("lists the session's artifacts as resources with mime type and size, and reads them", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toHaveLength(5);
    expect(uris).not.toContain(`aref://sha256/${fx.ids.other}`);
    const log = resources.find((r) => r.uri === `aref://sha256/${fx.ids.log}`)!;
    expect(log).toMatchObject({ title: "npm test output", mimeType: "text/plain", size: Buffer.byteLength(bigLog()) });
    expect(log.name).toMatch(/^art:[0-9a-f]{12,}$/);
    const whole = await client.readResource({ uri: log.uri });
    expect(whole.contents[0]).toMatchObject({ uri: log.uri, mimeType: "text/plain", text: bigLog() });
    const bin = await client.readResource({ uri: `aref://sha256/${fx.ids.binary}` });
    expect(bin.contents[0]).toMatchObject({
      mimeType: "application/octet-stream",
      blob: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]).toString("base64"),
    });
  });

  it("resource templates select a bounded part", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "aref://sha256/{hex}",
      expect.stringMatching(/^aref:\/\/sha256\/\{hex\}\{\?mode,pattern,.*\}$/),
    ]);
    const grep = await client.readResource({ uri: `aref://sha256/${fx.ids.log}?mode=grep&pattern=%5EFAIL&context=0` });
    const text = (grep.contents[0] as { text: string }).text;
    expect(text.match(/FAIL/g)).toHaveLength(4);
    const range = await client.readResource({
      uri: `aref://sha256/${fx.ids.log}?mode=range&start=1&end=2000&maxChars=50000`,
    });
    expect((range.contents[0] as { text: string }).text.length).toBeLessThanOrEqual(CAP);
    expect(range.contents[0]!._meta).toMatchObject({ truncated: true, artifact: `aref://sha256/${fx.ids.log}` });
    const json = await client.readResource({ uri: `aref://sha256/${fx.ids.json}?mode=jsonpath&expr=%24.name` });
    expect((json.contents[0] as { text: string }).text).toContain("demo");
  });

  it("resource errors: bad URI, unknown artifact, another session, bad selector parameter", async () => {
    await expect(client.readResource({ uri: "aref://sha256/XYZ" })).rejects.toThrow(/INVALID_HANDLE/);
    await expect(client.readResource({ uri: `aref://sha256/${"0".repeat(64)}` })).rejects.toThrow(/NOT_FOUND/);
    await expect(client.readResource({ uri: `aref://sha256/${fx.ids.other}` })).rejects.toThrow(/NOT_FOUND|EXPIRED/);
    await expect(client.readResource({ uri: `aref://sha256/${fx.ids.log}?bogus=1` })).rejects.toThrow(
      /INVALID_SELECTOR: unknown selector parameter "bogus"/,
    );
    await expect(client.readResource({ uri: `aref://sha256/${fx.ids.log}?mode=range&start=x` })).rejects.toThrow(
      /INVALID_SELECTOR/,
    );
  });

  it("artifacts_stash stores (redacting secrets), links the new resource and notifies list changes", async () => {
    const before = listChanged;
    const content = `deploy log\nAWS key AKIAIOSFODNN7EXAMPLE used\n${"line\n".repeat(50)}`;
    const r = await call("artifacts_stash", { content, label: "deploy log", mime: "text/plain", type: "log" });
    expect(r.isError, texts(r).join()).toBeFalsy();
    const [link] = links(r);
    expect(link!.uri).toMatch(/^aref:\/\/sha256\/[0-9a-f]{64}$/);
    const text = texts(r)[0]!;
    expect(text).toMatch(/^art:[0-9a-f]{12,} \(deploy log\): \d+ bytes, text\/plain/);
    expect(text).toContain("call artifacts_get with");
    expect(text).toContain(link!.uri);
    expect(text).toContain("redacted before storing: aws_access_key");
    const ref = text.split(" ")[0]!;
    const got = await get({ ref, selector: { mode: "grep", pattern: "AWS key", context: 0 } });
    expect(got.text).toContain("[REDACTED:aws_access_key]");
    expect(got.text).not.toContain("AKIAIOSFODNN7EXAMPLE");
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    const { resources } = await client.listResources();
    expect(resources.map((x) => x.uri)).toContain(link!.uri);
  });

  it("artifacts_stash over the store's cap is a TOO_LARGE error", async () => {
    const r = await call("artifacts_stash", { content: "x".repeat(600 * 1024) });
    expect(r.isError).toBe(true);
    expect(texts(r)[0]).toMatch(/^TOO_LARGE: content is 614400 bytes, over this server's cap of 524288 bytes/);
  });

  it("artifacts_list shows the session's artifacts with short refs", async () => {
    const r = await call("artifacts_list", {});
    const listing = r.structuredContent as {
      total: number;
      artifacts: Array<{ artifact_reference: string; label?: string; size_bytes: number }>;
    };
    expect(listing.total).toBe(6);
    expect(listing.artifacts.map((a) => a.label)).toContain("npm test output");
    expect(listing.artifacts.every((a) => /^art:[0-9a-f]{12,}$/.test(a.artifact_reference))).toBe(true);
    expect(texts(r)[0]).toMatch(/^6 artifact\(s\) in session s1:/);
    const limited = await call("artifacts_list", { limit: 2 });
    expect((limited.structuredContent as { artifacts: unknown[] }).artifacts).toHaveLength(2);
    expect(texts(limited)[0]).toContain("newest 2 shown");
  });

  it("artifacts_resolve maps words to ranked candidates", async () => {
    const r = await call("artifacts_resolve", { text: "what did the test run say?" });
    const { candidates } = r.structuredContent as {
      candidates: Array<{ artifact_reference: string; uri: string; reasons: string[] }>;
    };
    expect(candidates[0]!.uri).toBe(`aref://sha256/${fx.ids.log}`);
    expect(texts(r)[0]).toContain(candidates[0]!.artifact_reference);
    expect(links(r)[0]!.uri).toBe(`aref://sha256/${fx.ids.log}`);
    const pkg = await call("artifacts_resolve", { text: "summarize the package.json" });
    expect((pkg.structuredContent as { candidates: Array<{ uri: string }> }).candidates[0]!.uri).toBe(
      `aref://sha256/${fx.ids.json}`,
    );
    const none = await call("artifacts_resolve", { text: "the kubernetes manifest" });
    expect((none.structuredContent as { candidates: unknown[] }).candidates).toEqual([]);
    expect(texts(none)[0]).toMatch(/^no artifact in session s1 matches/);
  });

  it("writes nothing but protocol to stdout (logs, if any, go to stderr)", () => {
    expect(stderr).not.toMatch(/Error/);
    expect(COLLIDING).toHaveLength(2);
  });
});
