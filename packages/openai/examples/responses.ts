// The same agent on the OpenAI Responses API.
// Run: OPENAI_API_KEY=… node --import tsx examples/responses.ts
import OpenAI from "openai";
import { createOpenAIRefs } from "@artifact-refs/openai";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

const readLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const myTools = [
  {
    type: "function" as const,
    name: "read_log",
    description: "Read the test log",
    parameters: { type: "object", properties: { path: { type: "string" } } },
    strict: false,
  },
];

const client = new OpenAI();
const refs = createOpenAIRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "resp-1" });
const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Which tests failed in test.log?" }];
for (let turn = 0; turn < 8; turn++) {
  const response = await client.responses.create({
    model: "gpt-4.1-mini",
    input,
    tools: [...myTools, ...refs.responsesTools],
  });
  input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
  const calls = response.output.filter((item) => item.type === "function_call");
  if (calls.length === 0) {
    console.log(response.output_text);
    break;
  }
  for (const call of calls) input.push(await refs.functionCallOutput(call, () => readLog()));
}
