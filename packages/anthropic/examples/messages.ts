// An agent loop on the Anthropic SDK whose large tool outputs never enter `messages`.
// Run: ANTHROPIC_API_KEY=… node --import tsx examples/messages.ts
// (ANTHROPIC_BASE_URL points it at another server; the package's test uses a local one.)
import Anthropic from "@anthropic-ai/sdk";
import { createAnthropicRefs } from "@artifact-refs/anthropic";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

// Your tool: returns a ~100 KB test log.
const readLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const myTools: Anthropic.Tool[] = [
  {
    name: "read_log",
    description: "Read the test log",
    input_schema: { type: "object", properties: { path: { type: "string" } } },
  },
];

const client = new Anthropic();
const refs = createAnthropicRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "chat-1" });
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Which tests failed in test.log?" }];
for (let turn = 0; turn < 8; turn++) {
  const reply = await client.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages,
    tools: [...myTools, ...refs.tools],
  });
  messages.push({ role: "assistant", content: reply.content });
  const uses = reply.content.filter((block) => block.type === "tool_use");
  if (uses.length === 0) {
    console.log(reply.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
    break;
  }
  messages.push({
    role: "user",
    content: await Promise.all(uses.map((use) => refs.toolResultBlock(use, () => readLog()))),
  }); // artifacts_get is answered by refs
}
