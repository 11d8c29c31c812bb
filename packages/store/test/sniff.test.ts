import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "../src/index.js";
import { sniffMime } from "../src/internal.js";

describe("the one MIME sniffer (store put and context's externalizer)", () => {
  it("tells PDF text, HTML, JSON objects and arrays from plain text and bytes", () => {
    expect(sniffMime("%PDF-1.7 extracted text")).toBe("application/pdf");
    expect(sniffMime("  <!DOCTYPE html><html><title>x</title></html>")).toBe("text/html");
    expect(sniffMime('{"a": [1, 2]}\n')).toBe("application/json");
    expect(sniffMime("[1, 2, 3]")).toBe("application/json");
    expect(sniffMime("{not json}")).toBe("text/plain");
    expect(sniffMime("[INFO] started\n[INFO] done")).toBe("text/plain");
    expect(sniffMime("42")).toBe("text/plain");
    expect(sniffMime(undefined)).toBe("application/octet-stream");
  });

  it("is what put records when the caller gives no MIME type", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const pdf = await store.put("%PDF-1.4 text of a report", { session: "s1" });
    const json = await store.put('{"rows": [1, 2]}', { session: "s1" });
    expect((await store.getRecord(pdf.id)).mime).toBe("application/pdf");
    expect((await store.getRecord(json.id)).mime).toBe("application/json");
  });
});
