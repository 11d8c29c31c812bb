import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import fc from "fast-check";
import { ERROR_CODES, isArefError, parseRef } from "@artifact-refs/schema";
import { ArtifactStore, isValidKey } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { parseStoreSpec } from "@artifact-refs/store-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, fixture } from "../src/children.js";
import { diffSnapshots, filesUnder, snapshot } from "../src/files.js";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { report } from "../src/summary.js";
import { TimedWorker } from "../src/worker-pool.js";

/**
 * Property fuzzing with fast-check: generated handles, short refs, session ids, storage keys,
 * selectors, JSONPath expressions, regexes and store specs. Every case must either succeed
 * or throw an ArefError with one of the codes documented for that call; selectors run in a
 * worker thread with a time limit per case (a case over it is a hang); the filesystem around
 * the stores (the parent directory, a sibling canary directory) must not change.
 */
const SEED = seedFromEnv();
const tally = { cases: 0, failures: [] as string[], codes: {} as Record<string, number>, hangs: 0 };

function check(target: string, input: unknown, error: unknown, allowed: readonly string[]): void {
  tally.cases++;
  if (error === undefined) return;
  const code = isArefError(error) ? error.code : undefined;
  if (code !== undefined && allowed.includes(code) && (ERROR_CODES as readonly string[]).includes(code)) {
    tally.codes[`${target}:${code}`] = (tally.codes[`${target}:${code}`] ?? 0) + 1;
    return;
  }
  if (tally.failures.length < 50)
    tally.failures.push(
      `${target}(${JSON.stringify(input)?.slice(0, 200)}) threw ${code ?? (error as Error)?.name}: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
    );
}

async function attempt(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
    return undefined;
  } catch (error) {
    return error ?? new Error("threw a falsy value");
  }
}

const HEX = "0123456789abcdef".split("");
const hex = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...HEX), minLength: min, maxLength: max });
const NASTY = [
  "",
  ".",
  "..",
  "../..",
  "/",
  "//",
  "\\",
  "..\\..",
  "%2e%2e",
  "%2F",
  "\u0000",
  " ",
  "~",
  "/etc/passwd",
  "CON",
  "a/b",
  "refs",
  "blobs",
  ".tmp-1",
  "x.gz",
  "é",
  "\u202e",
  "x".repeat(300),
];

const refArb = (known: string[]) =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc
      .tuple(
        fc.constantFrom(
          "",
          "art:",
          "aref:v1:sha256:",
          "ART:",
          "aref:v2:sha256:",
          "sha256:",
          "../",
          "art:../",
          "%2e%2e/",
        ),
        hex(0, 70),
        fc.constantFrom("", "/..", "\u0000", " ", ".json", "/../../etc/passwd", "G"),
      )
      .map(([a, b, c]) => a + b + c),
    fc
      .tuple(fc.constantFrom(...known), fc.integer({ min: 1, max: 64 }), fc.constantFrom("", "art:", "aref:v1:sha256:"))
      .map(([id, n, p]) => p + id.slice(0, n)),
    fc.constantFrom(...NASTY),
  );
const sessionArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("sess-a", "sess-b", "sess-a:x"),
  fc.string({ maxLength: 140 }),
  fc.constantFrom(...NASTY),
);

/** Mostly valid numbers (so that the pattern or expression is what gets exercised), sometimes nasty ones. */
const intish = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 1, max: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 0 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      100_000,
      100_001,
      1e9,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      "5",
      null,
    ),
  },
);
const CATASTROPHIC = [
  "(a+)+$",
  "(a|aa)+$",
  "(a|a?)+b",
  "(.*a){20}",
  "(\\w+\\s?)*$",
  "^(a+)+b",
  "(x+x+)+y",
  "((a*)*)*b",
  "(?:a|b|ab)*c",
  "a{1000}{1000}",
  "(a{0,1000}){1000}",
  "\\1",
  "(a)\\1",
  "(?<=a)b",
  "(?=a)a",
  "[",
  "(",
  "*",
  "a**",
  "\\p{L}+",
  "(?i)a",
  "\\b\\w+\\b",
  "a{99999}",
  "[^]",
  "(?<n>a)\\k<n>",
  ".*.*.*.*.*.*=",
  "\\",
  "[z-a]",
  "(?",
  "a|",
  "^$",
];
const regexArb = fc.oneof(
  fc.constantFrom(...CATASTROPHIC),
  fc.constantFrom(...CATASTROPHIC),
  fc.stringMatching(/^[a-z]{1,6}(\\s\\d+|\.\*|\+|\|[a-z]{1,4})?$/),
  fc.string({ unit: fc.constantFrom(..."()[]{}*+?|^$.\\aAb0,19dws-:<>=!".split("")), minLength: 1, maxLength: 24 }),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const PATH_PARTS = [
  ".a",
  ".b",
  ".s",
  "..",
  ".*",
  "..*",
  "[*]",
  "[0]",
  "[-1]",
  "[1:3]",
  "[::-1]",
  "[::0]",
  "['a']",
  '["b"]',
  "[?@.x > 1]",
  "[?@.a == 'x']",
  "[?length(@) > 2]",
  "[?match(@.s, 'a.*')]",
  "[?search(@.s, '(a+)+$')]",
  "[?count(@.*) > 1]",
  "[?value(@..x) == 1]",
  "[0,1,2]",
  "[9007199254740993]",
  "[-9007199254740992:]",
  "[?@]",
  "[?!@.a]",
  "['\\u0000']",
  "[?@.a<@.b]",
  "[?@.deep]",
  "[",
  "]",
  "$",
  "@",
  "[?(@.a)]",
  "[?nope(@)]",
  "[1:2:3:4]",
  "['unterminated",
];
const VALID_PARTS = PATH_PARTS.slice(0, 28);
const jsonPathArb = fc.oneof(
  fc.array(fc.constantFrom(...VALID_PARTS), { maxLength: 6 }).map((parts) => `$${parts.join("")}`),
  fc.array(fc.constantFrom(...VALID_PARTS), { maxLength: 6 }).map((parts) => `$${parts.join("")}`),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...PATH_PARTS),
        fc.string({ maxLength: 6 }).map((s) => `.${s}`),
        fc.string({ maxLength: 8 }).map((s) => `['${s}']`),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 8 },
    )
    .map((parts) => `$${parts.join("")}`),
  fc
    .array(fc.oneof(fc.constantFrom("a", "0", "~0", "~1", "", "-", "deep", "~2"), fc.string({ maxLength: 5 })), {
      maxLength: 6,
    })
    .map((parts) => `/${parts.join("/")}`),
  fc.string({ minLength: 1, maxLength: 30 }),
);
const contextArb = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 0, max: 100 }) },
  { weight: 1, arbitrary: intish },
);
const grepArb = (pattern: fc.Arbitrary<string>) =>
  fc.record(
    {
      mode: fc.constant("grep"),
      pattern,
      ignoreCase: fc.oneof({ weight: 9, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant("yes") }),
      context: contextArb,
      maxMatches: intish,
      skip: contextArb,
      maxChars: intish,
    },
    { requiredKeys: ["mode", "pattern"] },
  );
const jsonSelArb = fc.record(
  { mode: fc.constant("jsonpath"), expr: jsonPathArb, skip: intish, maxChars: intish },
  { requiredKeys: ["mode", "expr"] },
);
const selectorArb = fc.oneof(
  fc.record(
    { mode: fc.constant("headtail"), head: intish, tail: intish, maxChars: intish },
    { requiredKeys: ["mode"] },
  ),
  grepArb(regexArb),
  fc.record(
    { mode: fc.constant("range"), start: intish, end: intish, offset: intish, maxChars: intish },
    { requiredKeys: ["mode"] },
  ),
  jsonSelArb,
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({
    mode: fc.constantFrom("grep", "range", "jsonpath", "headtail", "nope", ""),
    extra: fc.jsonValue({ maxDepth: 1 }),
  }),
);

function deepJson(depth: number): string {
  return `${"[".repeat(depth)}{"deep": 1, "x": 1}${"]".repeat(depth)}`;
}
const CONTENTS: (string | number[])[] = [
  Array.from(
    { length: 2_000 },
    (_, i) =>
      `2026-11-22T10:00:${String(i % 60).padStart(2, "0")}Z ${i % 7 === 0 ? "ERROR" : "INFO"} request ${i} took ${i % 97} ms aaa bab`,
  ).join("\n"),
  JSON.stringify({
    a: [1, 2, 3],
    b: { s: "aaaaaaaaaaaaaaaaaaaaaaaaaaaa!", x: 2, deep: { x: 1 } },
    s: "abc",
    items: Array.from({ length: 500 }, (_, i) => ({ x: i, s: "a".repeat(i % 40), a: i % 3 ? "x" : "y" })),
  }),
  deepJson(3_000),
  `${"a".repeat(50_000)}!`,
  "",
  "é€😀\u0000\r\n\t mixed\r\nlines\rold mac\n",
  Array.from({ length: 300 }, (_, i) => (i * 37) % 256),
  "x".repeat(200_000),
  deepJson(20_000),
];
const JSON_CONTENTS = [1, 2, 8];
const TEXT_CONTENTS = [0, 3, 5, 7];
const SELECT_CODES = ["INVALID_SELECTOR", "REGEX_TIMEOUT", "UNSUPPORTED"];
const STORE_CODES = [
  "NOT_FOUND",
  "INVALID_HANDLE",
  "INVALID_INPUT",
  "AMBIGUOUS_REF",
  "UNKNOWN_SESSION",
  "EXPIRED",
  "UNSUPPORTED",
  "TOO_LARGE",
];

describe("fuzzing", () => {
  let parent: string;
  let outsideBefore: Map<string, string>;
  const outside = () => snapshot(parent, (rel) => /^(read|write|driver)(\/|$)/.test(rel));
  beforeAll(async () => {
    assertBuilt(["schema", "store", "resolve"]);
    parent = await mkdtemp(join(tmpdir(), "aref-fuzz-"));
    await mkdir(join(parent, "canary", "sub"), { recursive: true });
    await writeFile(join(parent, "canary", "secret.txt"), "canary: must never be read into a result nor changed\n");
    await writeFile(join(parent, "canary", "sub", "x.json"), "{}\n");
    outsideBefore = await outside();
  });
  afterAll(async () => {
    const diff = diffSnapshots(outsideBefore, await outside());
    await rm(parent, { recursive: true, force: true });
    const perTarget = Object.entries(tally.codes)
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    report(
      "fuzz",
      `${tally.cases} cases, ${tally.failures.length} failures, ${tally.hangs} hangs, ${diff.length} paths touched outside the stores (seed ${SEED})`,
      {
        cases: tally.cases,
        failures: tally.failures.length,
        hangs: tally.hangs,
        outside_changes: diff.length,
        seed: SEED,
        codes: perTarget,
      },
    );
    expect(diff).toEqual([]);
  });

  it("parseRef: returns a well-formed id or prefix, or INVALID_HANDLE", () => {
    const from = tally.failures.length;
    const n = scale(400, 20_000);
    for (const input of fc.sample(refArb(["0".repeat(64)]), { numRuns: n, seed: SEED })) {
      let error: unknown;
      try {
        const parsed = parseRef(input);
        const ok = parsed.kind === "id" ? /^[0-9a-f]{64}$/.test(parsed.id) : /^[0-9a-f]{12,63}$/.test(parsed.prefix);
        if (!ok) error = new Error(`parseRef returned a malformed result ${JSON.stringify(parsed)}`);
      } catch (e) {
        error = e;
      }
      check("parseRef", input, error, ["INVALID_HANDLE"]);
    }
    expect(tally.failures.slice(from)).toEqual([]);
  });

  it("store reads and writes with generated refs and session ids stay inside the store", async () => {
    const from = tally.failures.length;
    const readRoot = join(parent, "read");
    const writeRoot = join(parent, "write");
    const reader = new ArtifactStore({ driver: new FsDriver({ root: readRoot }) });
    const writer = new ArtifactStore({ driver: new FsDriver({ root: writeRoot }), maxBytes: 4096 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(
        (
          await reader.put(i % 5 === 0 ? Uint8Array.from([0, 1, 2, 255, i]) : `artifact ${i}\n`, {
            session: i % 2 ? "sess-a" : "sess-b",
            ...(i === 3 ? { ttlMs: 1 } : {}),
          })
        ).id,
      );
    await new Promise((r) => setTimeout(r, 5)); // the ttl of artifact 3 runs out
    const readBefore = await snapshot(readRoot);
    const n = scale(400, 20_000);
    const op = fc.constantFrom(
      "get",
      "getText",
      "getRecord",
      "has",
      "resolve",
      "listReferences",
      "shortRef",
      "put",
      "removeReference",
      "addReference",
    );
    const cases = fc.sample(
      fc.tuple(op, refArb(ids), sessionArb, fc.oneof(fc.string({ maxLength: 20 }), fc.constant(undefined))),
      { numRuns: n, seed: SEED + 1 },
    );
    for (const [name, ref, session, label] of cases) {
      const scope = session === undefined ? {} : { session };
      const error = await attempt(async () => {
        switch (name) {
          case "get":
            return reader.get(ref, scope);
          case "getText":
            return reader.getText(ref, scope);
          case "getRecord":
            return reader.getRecord(ref, scope);
          case "has":
            return reader.has(ref);
          case "resolve":
            return reader.resolve(ref, scope);
          case "listReferences":
            return reader.listReferences(session ?? ref);
          case "shortRef":
            return reader.shortRef(ref, scope);
          case "put":
            return writer.put(`${ref}|${label ?? ""}`, { ...scope, ...(label === undefined ? {} : { label }) });
          case "removeReference":
            return writer.removeReference(session ?? ref, ref);
          case "addReference":
            return writer.addReference(session ?? "sess-a", ref, label === undefined ? {} : { label });
        }
      });
      check(`store.${name}`, { ref, session, label }, error, STORE_CODES);
    }
    // Reads changed nothing; writes only made well-formed files inside the write store.
    expect(diffSnapshots(readBefore, await snapshot(readRoot))).toEqual([]);
    const written = await filesUnder(writeRoot);
    const stray = written.filter(
      (f) =>
        !/^(layout\.json|blobs\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}|meta\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.json|refs\/[A-Za-z0-9._:-]+\/[0-9a-f]{2}\/[0-9a-f]{64}\.json)$/.test(
          f,
        ) || f.split("/").some((s) => s === ".." || s === "."),
    );
    expect(stray).toEqual([]);
    expect(tally.failures.slice(from)).toEqual([]);
  });

  it("FsDriver with generated keys: valid keys stay under the root, the rest is INVALID_INPUT", async () => {
    const from = tally.failures.length;
    const root = join(parent, "driver");
    const driver = new FsDriver({ root });
    const segment = fc.oneof(
      fc.constantFrom(...NASTY, "a", "b", "blobs", "meta", "sha256", "ab"),
      fc.string({ maxLength: 8 }),
    );
    const keyArb = fc.oneof(
      fc.string(),
      fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join("/")),
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("\\")),
    );
    const n = scale(300, 15_000);
    const putKeys = new Set<string>();
    const history = new Map<string, string[]>();
    for (const [name, key] of fc.sample(
      fc.tuple(fc.constantFrom("get", "head", "put", "putIfAbsent", "delete", "list"), keyArb),
      { numRuns: n, seed: SEED + 2 },
    )) {
      const error = await attempt(async () => {
        if (name === "list") {
          for await (const _ of driver.list(key)) break;
          return;
        }
        if (name === "put" || name === "putIfAbsent") {
          await driver[name](key, new TextEncoder().encode(key));
          putKeys.add(key);
          if (!isValidKey(key)) throw new Error(`accepted the invalid key ${JSON.stringify(key)}`);
          return;
        }
        if (name === "delete") {
          if (await driver.delete(key)) putKeys.delete(key);
          return;
        }
        return driver[name](key);
      });
      // IO_ERROR: raw keys may collide as file and directory ("a" then "a/b"); the store's own layout never does.
      check(`driver.${name}`, key, error, ["INVALID_INPUT", "IO_ERROR"]);
      history.set(key, [
        ...(history.get(key) ?? []),
        `${name}${error ? ` threw ${(error as { code?: string }).code}` : ""}`,
      ]);
    }
    const files = await filesUnder(root); // gzip is off: a file is its key
    expect(files.filter((f) => !putKeys.has(f)).map((f) => `${f}: ${history.get(f)?.join(", ")}`)).toEqual([]);
    expect(tally.failures.slice(from)).toEqual([]);
  });

  describe("selectors in a worker thread, each case time-limited", () => {
    let worker: TimedWorker;
    beforeAll(() => {
      worker = new TimedWorker(fixture("select-worker.mjs"), { contents: CONTENTS });
    });
    afterAll(async () => {
      tally.hangs += worker.hangs;
      await worker.close();
    });
    const runCases = async (target: string, cases: [number, unknown][]) => {
      let i = 0;
      for (const [content, selector] of cases) {
        const result = await worker.run({ i: i++, content, selector }, 10_000);
        if (result === "hang") {
          tally.cases++;
          tally.failures.push(
            `${target}: hang (> 10 s) on content #${content} with ${JSON.stringify(selector).slice(0, 200)}`,
          );
          continue;
        }
        const error = result.ok
          ? undefined
          : result.aref
            ? Object.assign(new Error(result.message), { code: result.code, [Symbol.for("artifact-refs.error")]: true })
            : new Error(`${result.code ?? "non-ArefError"}: ${result.message}`);
        if (!result.ok && result.aref) tallyCode(target, result.code!, selector, result.message!);
        else check(target, selector, error, SELECT_CODES);
      }
    };
    const tallyCode = (target: string, code: string, selector: unknown, message: string) => {
      tally.cases++;
      if (SELECT_CODES.includes(code)) tally.codes[`${target}:${code}`] = (tally.codes[`${target}:${code}`] ?? 0) + 1;
      else if (tally.failures.length < 50)
        tally.failures.push(`${target}(${JSON.stringify(selector).slice(0, 200)}) threw ${code}: ${message}`);
    };

    it("SelectorSchema + applySelector: generated selectors of every mode on text, JSON and binary content", async () => {
      const from = tally.failures.length;
      const n = scale(600, 35_000);
      await runCases(
        "select",
        fc.sample(fc.tuple(fc.integer({ min: 0, max: CONTENTS.length - 1 }), selectorArb), {
          numRuns: n,
          seed: SEED + 3,
        }),
      );
      expect(tally.failures.slice(from)).toEqual([]);
    });

    it("JSONPath: generated expressions on JSON (3,000- and 20,000-deep documents included)", async () => {
      const from = tally.failures.length;
      const n = scale(300, 15_000);
      await runCases(
        "jsonpath",
        fc.sample(fc.tuple(fc.constantFrom(...JSON_CONTENTS), jsonSelArb), { numRuns: n, seed: SEED + 4 }),
      );
      expect(tally.failures.slice(from)).toEqual([]);
    });

    it("regexes: catastrophic and generated patterns on 50k-char runs and logs", async () => {
      const from = tally.failures.length;
      const n = scale(200, 10_000);
      await runCases(
        "regex",
        fc.sample(fc.tuple(fc.constantFrom(...TEXT_CONTENTS), grepArb(regexArb)), { numRuns: n, seed: SEED + 5 }),
      );
      expect(tally.failures.slice(from)).toEqual([]);
    });
  });

  it("parseStoreSpec: generated specs parse to a safe shape or CONFIG_INVALID, touching nothing", async () => {
    const from = tally.failures.length;
    const cwd = join(parent, "canary");
    const before = await snapshot(cwd);
    const specArb = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom(
            "",
            "memory:",
            "s3://",
            "file://",
            "file:///",
            "./",
            "../",
            "/",
            "~/",
            "S3://",
            "http://",
            "c:\\",
            "file://host/",
          ),
          fc.oneof(
            fc.string({ maxLength: 30 }),
            fc.constantFrom(...NASTY),
            fc.constantFrom("bucket", "my-bucket/pre/fix", "b/../x", "Bucket", "bu", "a".repeat(64)),
          ),
          fc.constantFrom(
            "",
            "?gzip=true",
            "?gzip=maybe",
            "?endpoint=http://127.0.0.1:9000",
            "?endpoint=javascript:x",
            "?x=1",
            "/..",
            "%00",
            "#frag",
            "?region=us-east-1&forcePathStyle=true",
            "?forcePathStyle=2",
            "%ZZ",
          ),
        )
        .map(([a, b, c]) => a + b + c),
    );
    const n = scale(200, 10_000);
    for (const spec of fc.sample(specArb, { numRuns: n, seed: SEED + 6 })) {
      let error: unknown;
      try {
        const parsed = parseStoreSpec(spec, cwd);
        if (parsed.kind === "fs" && !isAbsolute(parsed.root)) error = new Error(`relative root ${parsed.root}`);
        if (
          parsed.kind === "s3" &&
          (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(parsed.bucket) ||
            parsed.prefix.split("/").some((s) => s === ".." || s === "."))
        )
          error = new Error(`unsafe s3 spec ${JSON.stringify(parsed)}`);
      } catch (e) {
        error = e;
      }
      check("parseStoreSpec", spec, error, ["CONFIG_INVALID"]);
    }
    expect(diffSnapshots(before, await snapshot(cwd))).toEqual([]);
    expect(tally.failures.slice(from)).toEqual([]);
  });
});
