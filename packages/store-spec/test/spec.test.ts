import { isArefError } from "@artifact-refs/schema";
import {
  defaultStoreLocation,
  formatStoreSpec,
  parseStoreSpec,
  storeSpecFrom,
  type StoreSpec,
} from "@artifact-refs/store-spec";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function configError(spec: string): Error & { hint?: string } {
  let caught: unknown;
  try {
    parseStoreSpec(spec, "/base");
  } catch (error) {
    caught = error;
  }
  expect(isArefError(caught), `${JSON.stringify(spec)} should be refused, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe("CONFIG_INVALID");
  return caught as Error & { hint?: string };
}

describe("parseStoreSpec: directories", () => {
  it.each<[string, StoreSpec]>([
    ["/var/lib/aref", { kind: "fs", root: "/var/lib/aref", gzip: false }],
    ["./store", { kind: "fs", root: "/base/store", gzip: false }],
    ["store/sub", { kind: "fs", root: "/base/store/sub", gzip: false }],
    ["../up", { kind: "fs", root: "/up", gzip: false }],
    ["./store?gzip=true", { kind: "fs", root: "/base/store", gzip: true }],
    ["/abs?gzip=0", { kind: "fs", root: "/abs", gzip: false }],
    ["file:///srv/aref", { kind: "fs", root: "/srv/aref", gzip: false }],
    ["file:///srv/with%20space?gzip=yes", { kind: "fs", root: "/srv/with space", gzip: true }],
    ["file://localhost/srv/aref", { kind: "fs", root: "/srv/aref", gzip: false }],
  ])("%s", (spec, expected) => {
    expect(parseStoreSpec(spec, "/base")).toEqual(expected);
  });

  it("resolves relative paths against the working directory by default", () => {
    expect(parseStoreSpec("rel-store")).toEqual({ kind: "fs", root: `${process.cwd()}/rel-store`, gzip: false });
  });
});

describe("parseStoreSpec: memory", () => {
  it("memory: and memory:<name>", () => {
    expect(parseStoreSpec("memory:")).toEqual({ kind: "memory", name: "" });
    expect(parseStoreSpec("memory:team.cache-1_x")).toEqual({ kind: "memory", name: "team.cache-1_x" });
  });
});

describe("parseStoreSpec: s3", () => {
  it.each<[string, StoreSpec]>([
    ["s3://bucket", { kind: "s3", bucket: "bucket", prefix: "" }],
    ["s3://my.bucket-1/", { kind: "s3", bucket: "my.bucket-1", prefix: "" }],
    ["s3://bucket/team/artifacts/", { kind: "s3", bucket: "bucket", prefix: "team/artifacts" }],
    [
      "s3://bucket/p?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true",
      {
        kind: "s3",
        bucket: "bucket",
        prefix: "p",
        endpoint: "http://127.0.0.1:9000",
        region: "eu-west-1",
        forcePathStyle: true,
      },
    ],
    ["s3://bucket/p?forcePathStyle=false", { kind: "s3", bucket: "bucket", prefix: "p", forcePathStyle: false }],
    ["s3://bucket/p?conditionalWrites=on", { kind: "s3", bucket: "bucket", prefix: "p", conditionalWrites: "on" }],
    [
      "s3://bucket/p?endpoint=https://r2.example.com",
      { kind: "s3", bucket: "bucket", prefix: "p", endpoint: "https://r2.example.com" },
    ],
  ])("%s", (spec, expected) => {
    expect(parseStoreSpec(spec)).toEqual(expected);
  });
});

describe("parseStoreSpec: bad specs are CONFIG_INVALID with a clear message and a hint", () => {
  it.each<[string, RegExp]>([
    ["", /empty/],
    ["   ", /empty/],
    ["./store\u0000x", /NUL/],
    ["ftp://host/dir", /unknown scheme/],
    ["https://example.com/store", /unknown scheme/],
    ["./store?gzip=maybe", /gzip must be true or false, got "maybe"/],
    ["./store?zip=true", /unknown option "zip" \(allowed: gzip, maxBytes, gcGraceFloorMs\)/],
    ["file:///srv/aref?compress=1", /unknown option "compress"/],
    ["file://fileserver/share/aref", /must name a local path.*"fileserver"/],
    ["file:///bad%zzescape", /not a valid file:\/\/ URL/],
    ["memory:has/slash", /memory store name may only contain/],
    ["memory:with space", /memory store name may only contain/],
    ["s3://Upper/x", /bucket name must be 3-63 chars/],
    ["s3://ab/x", /bucket name must be 3-63 chars/],
    ["s3://-bucket/x", /bucket name must be 3-63 chars/],
    ["s3://bucket/x?endpoint=ftp://host", /endpoint must be an http\(s\) URL/],
    ["s3://bucket/x?endpoint=not a url", /endpoint must be an http\(s\) URL/],
    ["s3://bucket/x?forcePathStyle=sometimes", /forcePathStyle must be true or false/],
    [
      "s3://bucket/x?acl=public",
      /unknown option "acl" \(allowed: endpoint, region, forcePathStyle, conditionalWrites, maxBytes, gcGraceFloorMs\)/,
    ],
    ["s3://bucket/x?conditionalWrites=maybe", /conditionalWrites must be auto, on or off/],
    ["s3://bucket/a/%2E%2E%2Fb", /must not contain '\.' or '\.\.' segments/],
    ["s3://bucket/a%20b", /key prefix may only contain/],
    ["s3://bucket/%zz", /malformed %-escape/],
    ["s3://bucket:9000/x", /cannot have a port/],
  ])("%j", (spec, message) => {
    const error = configError(spec);
    expect(error.message).toMatch(message);
    expect(error.message).toContain("invalid store spec");
    expect(error.hint).toMatch(/memory:/);
  });

  it("refuses repeated, empty and misspelled options and schemes", () => {
    const cases: [string, RegExp][] = [
      ["s3://bkt/p?endpoint=http://a&endpoint=http://b", /endpoint is given twice/],
      ["s3://bkt/p?region=", /region is empty/],
      ["/tmp/x?gzip=1&gzip=0", /gzip is given twice/],
      ["s3:bkt/p", /with the two slashes/],
      ["S3://bkt/p", /lowercase/],
      ["MEMORY:", /lowercase/],
      ["file:///tmp/%00", /NUL/],
      ["?gzip=true", /no directory/],
      [`s3://bkt/${"a".repeat(900)}`, /over 800/],
    ];
    for (const [spec, message] of cases) expect(configError(spec).message, spec).toMatch(message);
  });

  it("never echoes credentials, even when another check fails first", () => {
    const error = configError("s3://AKIAEXAMPLE:s3 cr3t@bucket/x");
    expect(error.message).not.toContain("cr3t");
    expect(error.message).not.toContain("AKIAEXAMPLE");
  });

  it("~ is the home directory", () => {
    expect(parseStoreSpec("~/store", "/base")).toEqual({ kind: "fs", root: join(homedir(), "store"), gzip: false });
    expect(parseStoreSpec("~", "/base")).toEqual({ kind: "fs", root: homedir(), gzip: false });
    expect(parseStoreSpec("./~x", "/base")).toEqual({ kind: "fs", root: "/base/~x", gzip: false });
  });

  it("never echoes credentials put in an s3 spec", () => {
    const error = configError("s3://AKIAEXAMPLE:s3cr3t@bucket/x");
    expect(error.message).toMatch(/credentials do not belong in the store spec/);
    expect(error.message).not.toContain("s3cr3t");
    expect(error.message).not.toContain("AKIAEXAMPLE");
  });

  it("refuses values that are not strings", () => {
    for (const value of [undefined, null, 42]) {
      let caught: unknown;
      try {
        parseStoreSpec(value as never);
      } catch (error) {
        caught = error;
      }
      expect(isArefError(caught) && caught.code).toBe("CONFIG_INVALID");
    }
  });
});

describe("formatStoreSpec and where the spec comes from", () => {
  it("writes a spec back so that it parses to the same thing", () => {
    for (const spec of [
      "/srv/aref",
      "/srv/aref?gzip=true",
      "memory:",
      "memory:x",
      "s3://bucket/p?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=us-east-1&forcePathStyle=true",
      "s3://bucket/",
    ]) {
      const parsed = parseStoreSpec(spec);
      expect(parseStoreSpec(formatStoreSpec(parsed))).toEqual(parsed);
    }
    expect(formatStoreSpec({ kind: "fs", root: "/srv/aref", gzip: true })).toBe("/srv/aref?gzip=true");
  });

  it("--store wins over AREF_STORE, which wins over ~/.artifact-refs/store", () => {
    const env = { HOME: "/home/ada", AREF_STORE: "memory:env" };
    expect(storeSpecFrom("memory:flag", env)).toBe("memory:flag");
    expect(storeSpecFrom(undefined, env)).toBe("memory:env");
    expect(storeSpecFrom(undefined, { HOME: "/home/ada" })).toBe("/home/ada/.artifact-refs/store");
    expect(defaultStoreLocation({ HOME: "/home/bob" })).toBe("/home/bob/.artifact-refs/store");
  });
});
