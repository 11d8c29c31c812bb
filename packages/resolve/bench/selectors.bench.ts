// Selector throughput on 512 KiB artifacts, side by side with the naive JavaScript that
// does the same job without a cap (split + filter with a native RegExp, JSON.parse + walk).
import { applySelector } from "../src/index.js";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { bigJson, bigLog } from "./fixtures.js";

const log = bigLog();
const json = bigJson();
console.log(`machine: ${machine()}`);
console.log(
  `inputs: log ${log.length.toLocaleString("en-US")} chars / ${log.split("\n").length.toLocaleString("en-US")} lines; JSON ${json.length.toLocaleString("en-US")} chars`,
);

await compare({
  title: "Selectors on a 512 KiB log (8,000-char cap)",
  baseline: "naive grep (split + RegExp.test, uncapped)",
  cases: {
    "naive grep (split + RegExp.test, uncapped)": () => log.split("\n").filter((l) => /ERROR/.test(l)),
    "headtail (default)": () => applySelector(log),
    "range 5000:5200": () => applySelector(log, { mode: "range", start: 5_000, end: 5_200 }),
    "grep ERROR, context 2": () => applySelector(log, { mode: "grep", pattern: "ERROR", context: 2 }),
    "grep -i 'upstream timed out'": () =>
      applySelector(log, { mode: "grep", pattern: "upstream timed out", ignoreCase: true }),
    "grep (a+)+$ (catastrophic for backtracking)": () => applySelector(log, { mode: "grep", pattern: "(a+)+$" }),
  },
});

await compare({
  title: "JSONPath on a 512 KiB JSON document",
  baseline: "naive JSON.parse + filter (uncapped)",
  cases: {
    "naive JSON.parse + filter (uncapped)": () =>
      (JSON.parse(json) as { data: Array<{ status: string }> }).data.filter((d) => d.status === "failed"),
    "jsonpath $.data[?@.status=='failed'].id": () =>
      applySelector(json, { mode: "jsonpath", expr: "$.data[?@.status=='failed'].id" }),
    "jsonpath $.data[10]": () => applySelector(json, { mode: "jsonpath", expr: "$.data[10]" }),
    "JSON Pointer /data/10/customer": () => applySelector(json, { mode: "jsonpath", expr: "/data/10/customer" }),
  },
});

// A catastrophic pattern on the input that defeats backtracking engines: RE2 stays linear.
const evil = `${"a".repeat(100_000)}!`;
const t0 = performance.now();
applySelector(evil, { mode: "grep", pattern: "^(a+)+$" });
console.log(
  `\n(a+)+$ on 100,000 'a' + '!': ${(performance.now() - t0).toFixed(1)} ms with RE2JS (a backtracking engine does not finish)`,
);
