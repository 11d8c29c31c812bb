// "the output before this one": when "this one" (the latest record) is the only record of the kind the words pick,
// the record right before it is meant.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "b1",
    tool_name: "read_file",
    tool_args: { path: "etc/mosquitto.conf" },
    summary: "listener 1883; allow_anonymous false",
    result_type: "success",
  },
  {
    id: "b2",
    tool_name: "execute_bash",
    tool_args: { command: "journalctl -u mosquitto -n 50" },
    summary: "Opening ipv4 listen socket on port 1883; client sensor-7 disconnected",
    result_type: "success",
  },
  {
    id: "b3",
    tool_name: "execute_bash",
    tool_args: { command: "ls -l /dev/serial/by-id/" },
    summary: "usb-ITead_Sonoff_Zigbee_3.0_USB_Dongle_Plus -> ../../ttyUSB0",
    result_type: "success",
  },
];

describe("decide: the one before this one", () => {
  it("is the record right before the latest when only the latest is of the kind", () => {
    expect(resolveReferences("hmm, and the listing before this one?", session).candidates[0]?.id).toBe("b2");
  });
});
