// What the model is sent, with and without the adapter, for one agent turn whose tool returns
// a 100 KB log; and the adapter's cost per tool message. Run: pnpm --filter @artifact-refs/openai bench
import OpenAI from "openai";
import { countTokens } from "@artifact-refs/budget";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { createOpenAIRefs } from "../src/index.js";
import { bigLog, logScript, startFakeOpenAI } from "@artifact-refs/tooling/testing/fake-openai";

const LOG = bigLog();

async function turn(withRefs: boolean): Promise<{ requests: number; bytes: number; tokens: number; answer: string }> {
  const fake = await startFakeOpenAI((raw, index) =>
    withRefs ? logScript(raw, index) : index === 0 ? logScript(raw, 0) : logScript(raw, 2),
  );
  try {
    const client = new OpenAI({ baseURL: fake.url, apiKey: "bench", maxRetries: 0 });
    const refs = createOpenAIRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "bench" });
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "user", content: "Which tests failed in test.log?" },
    ];
    for (let i = 0; i < 5; i++) {
      const reply = (
        await client.chat.completions.create({ model: "gpt-4o", messages, tools: withRefs ? refs.tools : [] })
      ).choices[0]!.message;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) {
        if (call.type !== "function") continue;
        messages.push(
          withRefs ? await refs.toolMessage(call, LOG) : { role: "tool", tool_call_id: call.id, content: LOG },
        );
      }
    }
    const bodies = fake.requests.map((r) => r.raw);
    return {
      requests: bodies.length,
      bytes: bodies.reduce((n, b) => n + Buffer.byteLength(b), 0),
      tokens: bodies.reduce((n, b) => n + countTokens(b, { model: "gpt-4o" }), 0),
      answer: String(messages.at(-1)?.content),
    };
  } finally {
    await fake.close();
  }
}

console.log(`machine: ${machine()}`);
const naive = await turn(false);
const refs = await turn(true);
console.log(
  `\n### One turn, tool output of ${Buffer.byteLength(LOG)} bytes (request bodies the SDK sent, tokens: o200k_base)\n`,
);
console.log("| loop | requests | bytes sent | tokens sent | answer |\n|---|---:|---:|---:|---|");
for (const [name, r] of [
  ["tool output inline (naive)", naive],
  ["@artifact-refs/openai", refs],
] as const) {
  console.log(
    `| ${name} | ${r.requests} | ${r.bytes.toLocaleString("en-US")} | ${r.tokens.toLocaleString("en-US")} | ${r.answer} |`,
  );
}
console.log(`\nratio tokens (refs / naive): ${(refs.tokens / naive.tokens).toFixed(3)}`);

const store = new ArtifactStore({ driver: new MemoryDriver() });
const adapter = createOpenAIRefs({ store, session: "bench" });
let n = 0;
await compare({
  title: "Cost of one tool message for a 100 KB output",
  baseline: "plain message (no stash)",
  cases: {
    "plain message (no stash)": async () => ({ role: "tool", tool_call_id: "c", content: JSON.stringify(LOG) }),
    "refs.toolMessage (redact + hash + memory store + preview)": async () =>
      adapter.toolMessage({ id: `c${n++}`, function: { name: "read_log", arguments: "{}" } }, LOG),
  },
});
