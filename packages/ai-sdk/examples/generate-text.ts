// An AI SDK agent whose large tool results never enter the conversation.
// Run: OPENAI_API_KEY=… node --import tsx examples/generate-text.ts
// (OPENAI_BASE_URL points it at any OpenAI-compatible server; the package's test uses a local one.)
import { openai } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { createAiSdkRefs } from "@artifact-refs/ai-sdk";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

// Your tool: returns a ~100 KB test log.
const readLog = tool({
  description: "Read the test log",
  inputSchema: jsonSchema<{ path?: string }>({ type: "object", properties: { path: { type: "string" } } }),
  execute: async () =>
    Array.from({ length: 2000 }, (_, i) =>
      (i + 1) % 500 === 0
        ? `FAIL test/case-${i + 1}.test.ts`
        : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
    ).join("\n"),
});

const refs = createAiSdkRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "chat-1" });
const { text } = await generateText({
  model: openai.chat("gpt-4.1-mini"),
  tools: refs.wrapTools({ read_log: readLog }), // your tools, large results stashed, plus artifacts_get
  prepareStep: refs.prepareStep, // stashes large results already in the history, keeps the token budget
  stopWhen: stepCountIs(8),
  prompt: "Which tests failed in test.log?",
});
console.log(text);
