// A LangGraph agent whose read_log tool returns ~100 KB: a node after the ToolNode stashes the
// large ToolMessage, the model reads the failures with artifacts_get.
// Run: OPENAI_API_KEY=… node --import tsx examples/graph.ts (OPENAI_BASE_URL for another server)
import { type AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { createLangChainRefs } from "@artifact-refs/langchain";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { z } from "zod";

const testLog = () =>
  Array.from({ length: 2000 }, (_, i) =>
    (i + 1) % 500 === 0
      ? `FAIL test/case-${i + 1}.test.ts`
      : `ok ${i + 1} test/case-${i + 1}.test.ts ${"-".repeat(24)}`,
  ).join("\n");
const readLog = tool(async () => testLog(), {
  name: "read_log",
  description: "Read the test log",
  schema: z.object({ path: z.string() }),
});

const refs = createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "graph-1" }); // ←
const tools = [readLog, refs.artifactsGetTool]; // ←
const model = new ChatOpenAI({ model: "gpt-4.1-mini" }).bindTools(tools);
const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", async (state) => ({
    messages: [await model.invoke(refs.fitMessages(state.messages, { maxInputChars: 48_000 }))],
  })) // ←
  .addNode("tools", new ToolNode(tools))
  .addNode("stash", refs.stashToolMessages()) // ←
  .addEdge(START, "agent")
  .addConditionalEdges("agent", toolsCondition, ["tools", END])
  .addEdge("tools", "stash")
  .addEdge("stash", "agent")
  .compile();

const { messages } = await graph.invoke({ messages: [new HumanMessage("Which tests failed in test.log?")] });
console.log((messages.at(-1) as AIMessage).content);
