// Words near in meaning (word vectors): they rank among what the message's own words already
// match, never name an execution, and never make the session explain a message on their own.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { nearWords } from "../src/resolution/near-words.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "reports/q3-people.md" },
    summary: "report: payroll per team, Lyon office first",
    result_type: "success",
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "reports/q3-disk.md" },
    summary: "report: disk usage per host, db-2 at 91%",
    result_type: "success",
  },
  {
    id: "k3",
    tool_name: "send_email",
    tool_args: { to: "ops@example.org" },
    summary: "email sent to ops about the disk report",
    result_type: "success",
  },
];

describe("words near in meaning", () => {
  it("come from the shipped vectors: related words, not the word's own forms or stopwords", () => {
    expect(nearWords("salary")).toContain("payroll");
    expect(nearWords("mail")).toContain("email");
    expect(nearWords("mail")).not.toContain("mails");
    expect(nearWords("zzqx")).toEqual([]);
  });

  it("break a tie between records the message's own words match", () => {
    // "report" matches k1 and k2 alike; "salary" is near k1's "payroll" (k2 is the later one).
    const r = resolveReferences("the report about salary", session);
    expect(r.candidates[0]?.id).toBe("k1");
    expect(r.candidates[0]?.reasons.join(" ")).toContain('"salary" ~ "payroll"');
  });

  it("never answer a message on their own", () => {
    // "wages" is near "payroll", but nothing in the session is about the message's own words.
    expect(resolveReferences("were wages good in Lyon's neighbour towns last winter?", session).candidates).toEqual([]);
  });
});
