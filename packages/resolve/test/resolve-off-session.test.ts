// A message about the world (how a product behaves in general), about what would happen, or about a plan refers to
// nothing, even when it uses the session's own words; a question about what the session did or showed still finds
// its record. Session and wordings written for these tests (a greenhouse controller, not any reference set).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "execute_bash",
    tool_args: { command: "mosquitto_sub -h broker.local -t greenhouse/+/humidity -C 5" },
    summary: "5 messages: bed-a 71%, bed-b 88%, bed-c 64%, bed-a 72%, bed-b 90%",
  },
  {
    id: "g2",
    tool_name: "read_file",
    tool_args: { path: "controller/rules.yaml" },
    summary: "vent opens above 85% humidity; mister runs 30 s every 10 min below 60%; heater below 12 C",
  },
  {
    id: "g3",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl restart greenhouse-controller" },
    summary: "Job for greenhouse-controller.service failed: vent servo on gpio 18 busy",
    result_type: "error",
  },
  {
    id: "g4",
    tool_name: "web_search",
    tool_args: { query: "raspberry pi gpio busy servo pigpio daemon" },
    summary: "6 results: pigpio docs 'gpio in use', raspberrypi forums 'servo jitter and pigpiod'",
  },
  {
    id: "g5",
    tool_name: "write_file",
    tool_args: { path: "controller/rules.yaml" },
    summary: "Wrote 1,204 bytes: vent opens above 80% humidity, servo via pigpiod",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("how a product behaves in general", () => {
  it("refers to nothing", () => {
    expect(ids("does mosquitto keep retained messages when a broker restarts?")).toEqual([]);
    expect(ids("how does pigpiod usually share a gpio between two processes?")).toEqual([]);
    expect(ids("can a raspberry pi drive a servo and a humidity sensor from one pin?")).toEqual([]);
    expect(ids("is pigpio faster than rpi.gpio for servo pulses?")).toEqual([]);
    expect(ids("does systemd wait between two restarts of a service by default?")).toEqual([]);
  });

  it("a question about what a record showed or holds still finds it", () => {
    expect(ids("what does rules.yaml say about the vent now?")[0]).toBe("g5");
    expect(ids("which bed had the highest humidity reading?")[0]).toBe("g1");
    expect(ids("why did the controller restart fail?")[0]).toBe("g3");
    expect(ids("does the controller service even start?")).not.toEqual([]);
  });
});

describe("what would happen, how one would do it, the usual way", () => {
  it("refers to nothing", () => {
    expect(ids("what happens to the beds if the broker goes down overnight?")).toEqual([]);
    expect(ids("if humidity stays above 90% for a day, will the plants rot?")).toEqual([]);
    expect(ids("how would you set up an alert for the vent servo, something that texts me")).toEqual([]);
    expect(ids("what's the usual way to calibrate a humidity sensor")).toEqual([]);
    expect(ids("explain the difference between pigpio and the plain gpio sysfs interface")).toEqual([]);
  });

  it("a question about the session's result still finds it", () => {
    expect(ids("what happened when you restarted the controller?")[0]).toBe("g3");
    expect(ids("what's the difference between the first rules.yaml and the new one?")).not.toEqual([]);
  });
});

describe("a plan or the future", () => {
  it("refers to nothing", () => {
    expect(ids("next month we want to add a fourth bed with its own humidity sensor")).toEqual([]);
    expect(ids("we're planning to move the controller onto a pi 5")).toEqual([]);
    expect(ids("starting monday the vent should stay shut at night")).toEqual([]);
    expect(ids("long term the mister needs a second pump")).toEqual([]);
  });

  it("a question about what the session did still finds it", () => {
    expect(ids("what did the humidity readings show for bed-b?")[0]).toBe("g1");
    expect(ids("where did you read the vent threshold?")).not.toEqual([]);
  });
});

describe("whether something more was done", () => {
  it("refers to nothing when no record holds all of it", () => {
    expect(ids("did you also check the soil moisture on the beds?")).toEqual([]);
    expect(ids("did you restart the heater service too?")).toEqual([]);
    expect(ids("have you looked at the co2 readings as well")).toEqual([]);
  });

  it("finds the record that holds all of it", () => {
    expect(ids("did you also pull the humidity messages from the broker?")[0]).toBe("g1");
    expect(ids("did you search the pigpio docs too?")[0]).toBe("g4");
  });
});

describe("a pointer inside a side clause of a general question", () => {
  it("does not make the question about the session", () => {
    expect(ids("how would you set up a warning so i hear about it before the vent gets this stuck")).toEqual([]);
    expect(ids("what happens to the plants if that mister stops for a week?")).toEqual([]);
  });

  it("a pointer in the main clause still does", () => {
    expect(ids("how would you set up that rules file so the vent opens sooner?")).not.toEqual([]);
  });
});
