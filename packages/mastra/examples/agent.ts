// A Mastra agent whose read_log tool returns ~100 KB: the model gets a short ref and reads the
// failures with artifacts_get.
// Run: OPENAI_API_KEY=… node --import tsx examples/agent.ts (OPENAI_BASE_URL for another server)
import { createOpenAI } from "@ai-sdk/openai";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { createMastraRefs } from "@artifact-refs/mastra";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { z } from "zod";

const testLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const readLog = createTool({
  id: "read_log",
  description: "Read the test log",
  inputSchema: z.object({ path: z.string() }),
  execute: async () => testLog(),
});

const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });
const refs = createMastraRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "mastra-1" }); // ←
const agent = new Agent({
  name: "tester",
  instructions: "Answer from the test log.",
  model: openai.chat("gpt-4.1-mini"),
  tools: refs.withArtifacts({ read_log: readLog }),
}); // ←
const result = await agent.generate("Which tests failed in test.log?", { maxSteps: 5 });
console.log(result.text);
