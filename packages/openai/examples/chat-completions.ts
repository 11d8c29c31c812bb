// An agent loop on the OpenAI SDK whose large tool outputs never enter `messages`.
// Run: OPENAI_API_KEY=… node --import tsx examples/chat-completions.ts
// (OPENAI_BASE_URL points it at any OpenAI-compatible server; the package's test uses a local one.)
import OpenAI from "openai";
import { createOpenAIRefs } from "@artifact-refs/openai";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

// Your tool: returns a ~100 KB test log.
const readLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const myTools = [
  {
    type: "function" as const,
    function: {
      name: "read_log",
      description: "Read the test log",
      parameters: { type: "object", properties: { path: { type: "string" } } },
    },
  },
];

const client = new OpenAI();
const refs = createOpenAIRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "chat-1" });
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Which tests failed in test.log?" }];
for (let turn = 0; turn < 8; turn++) {
  const reply = (
    await client.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: [...myTools, ...refs.tools] })
  ).choices[0]!.message;
  messages.push(reply);
  if (!reply.tool_calls?.length) break;
  for (const call of reply.tool_calls) {
    if (call.type === "function") messages.push(await refs.toolMessage(call, () => readLog())); // artifacts_get is answered by refs
  }
}
console.log(messages.at(-1)?.content);
