// Whether a product supports or requires something in general, and whether a habit is good or bad practice, is a
// question about the world: it refers to nothing even in the session's own words. A question about what the session
// ran or read still finds its record. Session and wordings written for these tests (a home audio server).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "a1",
    tool_name: "execute_bash",
    tool_args: { command: "snapclient --list" },
    summary: "3 soundcards: hw:0 bcm2835 headphones, hw:1 usb dac, hw:2 hdmi",
  },
  {
    id: "a2",
    tool_name: "read_file",
    tool_args: { path: "/etc/snapserver.conf" },
    summary: "source = pipe:///tmp/snapfifo?name=mopidy&sampleformat=48000:16:2; codec = flac",
  },
  {
    id: "a3",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl restart snapserver" },
    summary: "snapserver.service: failed to open /tmp/snapfifo: permission denied",
    result_type: "error",
  },
  {
    id: "a4",
    tool_name: "web_search",
    tool_args: { query: "snapcast flac latency multiroom sync" },
    summary: "5 results: snapcast README 'buffer 1000 ms', forum 'opus codec lower latency'",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("whether a product supports or requires something", () => {
  it("refers to nothing", () => {
    expect(ids("does snapcast support the opus codec on older clients")).toEqual([]);
    expect(ids("does mopidy even require a pipe source or is a tcp one fine")).toEqual([]);
  });

  it("a question about what a record showed still finds it", () => {
    expect(ids("which codec does snapserver.conf set")[0]).toBe("a2");
    expect(ids("why did the snapserver restart fail")[0]).toBe("a3");
  });
});

describe("whether a habit is good or bad practice", () => {
  it("refers to nothing", () => {
    expect(ids("is it bad practice to run snapserver with flac over wifi?")).toEqual([]);
    expect(ids("is flac common practice for snapcast multiroom")).toEqual([]);
  });

  it("a question about what a record holds still finds it", () => {
    expect(ids("what sample format does snapserver.conf use")[0]).toBe("a2");
  });
});
