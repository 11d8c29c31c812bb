// Embeds the server in an app: a memory store, the built-in tools on this package's
// directory, one extra tool, and a session-scoped token. Run:
//   node --conditions=@artifact-refs/source --import tsx apps/server/examples/embed.ts
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { startServer } from "@artifact-refs/server";

const server = await startServer({
  store: "memory:",
  workspace: fileURLToPath(new URL("..", import.meta.url)),
  tokens: { admin: "admin-token-change-me-0123", sessions: { "alice-token-change-me-0123": ["alice"] } },
  tools: [
    {
      name: "word_count",
      title: "Word Count",
      description: "Counts the words of a text.",
      args: z.object({ text: z.string().max(100_000) }).strict(),
      run: async ({ text }) => ({ result: String(text.split(/\s+/).filter(Boolean).length), summary: "Counted words" }),
    },
  ],
});

const auth = { authorization: "Bearer alice-token-change-me-0123", "content-type": "application/json" };
const run = await fetch(`${server.url}/api/artifacts/execute`, {
  method: "POST",
  headers: auth,
  body: JSON.stringify({ session_id: "alice", tool_name: "read_file", tool_args: { path: "package.json" } }),
});
const execution = (await run.json()) as { summary: string };
console.log(execution.summary); // Loaded package.json (… KB)

const chat = await fetch(`${server.url}/api/chat`, {
  method: "POST",
  headers: auth,
  body: JSON.stringify({ session_id: "alice", message: "what is in the file I just loaded?" }),
});
const answer = (await chat.json()) as { referenced_executions: string[]; context_message: { content: string } | null };
console.log(
  `referenced ${answer.referenced_executions.length} execution(s); context message of ${answer.context_message?.content.length} chars`,
);

await server.close();
