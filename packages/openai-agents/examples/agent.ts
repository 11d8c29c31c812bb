// An OpenAI Agents SDK agent whose read_log tool returns ~100 KB: the run's history keeps a short
// ref, the model reads the failures with artifacts_get.
// Run: OPENAI_API_KEY=… node --import tsx examples/agent.ts (OPENAI_BASE_URL for another server)
import { Agent, run, tool } from "@openai/agents";
import { createAgentsRefs } from "@artifact-refs/openai-agents";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { z } from "zod";

const testLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const readLog = tool({
  name: "read_log",
  description: "Read the test log",
  parameters: z.object({ path: z.string() }),
  execute: async () => testLog(),
});

const refs = createAgentsRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "agent-1" }); // ←
const agent = refs.withArtifacts(
  new Agent({ name: "tester", instructions: "Answer from the test log.", model: "gpt-4.1-mini", tools: [readLog] }),
); // ←
const result = await run(agent, "Which tests failed in test.log?", {
  callModelInputFilter: refs.inputFilter({ maxInputChars: 48_000 }),
}); // ←
console.log(result.finalOutput);
