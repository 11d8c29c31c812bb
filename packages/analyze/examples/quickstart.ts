import { analyzeTexts, formatAnalyzeTable } from "@artifact-refs/analyze";

// A tiny agent transcript (trajectory JSONL): one big log read, then a grep.
const log = Array.from({ length: 3_000 }, (_, i) => `${i} ${i % 97 === 0 ? "ERROR" : "INFO"} request ${i}`).join("\n");
const messages = [
  { role: "system", content: "You are an agent." },
  { role: "user", content: "Find the error in the log." },
  { role: "assistant", content: "cat app.log" },
  { role: "tool", content: log, tool_name: "bash" },
  { role: "assistant", content: "grep ERROR app.log" },
  { role: "tool", content: "0 ERROR request 0", tool_name: "bash" },
  { role: "assistant", content: "The first error is request 0." },
];
const text = `${messages.map((m) => JSON.stringify(m)).join("\n")}\n`;

const report = await analyzeTexts([{ name: "t.jsonl", text }]);
console.log(report.calls); // 3
console.log(report.externalized); // 1
console.log(report.strategies.window.tokens < report.naive_tokens); // true
// The default table fits 100 columns; { wide: true } prints every column as markdown.
console.log(formatAnalyzeTable(report).split("\n")[0]!.startsWith("transcript (.jsonl)  calls")); // true
console.log(formatAnalyzeTable(report, { wide: true }).startsWith("| transcript | calls |")); // true
