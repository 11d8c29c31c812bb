// "the very first build, …", "the earlier install": a tool noun right after an order word names the kind outright, so
// the order counts every record of that kind, not only the ones the other words pick best. Messages and records
// written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

describe("an order word before a tool noun", () => {
  it("names the kind with a named kind's weight", () => {
    expect(parseQuery("the very first build, what did it say about ram").hints.get("exec")?.weight).toBe(3);
    expect(parseQuery("what did it say about ram in a build").hints.get("exec")?.weight ?? 0).toBeLessThan(3);
  });

  it("orders every record of the kind", () => {
    const session = [
      {
        id: "b1",
        tool_name: "execute_bash",
        tool_args: { command: "make all" },
        summary: "linking firmware.elf; ld: region `SRAM' overflowed by 512 bytes; collect2: error",
      },
      {
        id: "b2",
        tool_name: "read_file",
        tool_args: { path: "linker.ld" },
        summary: "MEMORY { FLASH 256K, RAM1 64K }",
      },
      { id: "b3", tool_name: "write_file", tool_args: { path: "src/buffers.c" }, summary: "Wrote 2,048 bytes" },
      {
        id: "b4",
        tool_name: "execute_bash",
        tool_args: { command: "make all" },
        summary: "SRAM: [=========] 88.1% (used 57720 bytes from 65536 bytes); text 120 KB",
      },
      { id: "b5", tool_name: "execute_bash", tool_args: { command: "make flash" }, summary: "flashing done, verified" },
      { id: "b6", tool_name: "execute_bash", tool_args: { command: "screen /dev/ttyUSB0" }, summary: "boot ok" },
    ];
    expect(resolveReferences("the very first build, how much over was sram", session).candidates[0]?.id).toBe("b1");
  });
});
