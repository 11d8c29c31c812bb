// Run: node --conditions=@artifact-refs/source --import tsx examples/quickstart.ts   (from packages/context)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import {
  ArtifactsGetTool,
  Externalizer,
  TranscriptWriter,
  readTranscript,
  rehydrateTranscript,
} from "@artifact-refs/context";

const store = new ArtifactStore({ driver: new MemoryDriver() });
const session = "demo";
const path = join(mkdtempSync(join(tmpdir(), "aref-demo-")), "demo.jsonl");
const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });

// A tool returns 3,000 lines of test output: too big to keep in the prompt.
const output = Array.from({ length: 3000 }, (_, i) =>
  i === 1234 ? "FAILED tests/test_api.py::test_login - AssertionError" : `PASSED tests/test_${i}.py::test_case`,
).join("\n");
const result = await writer.appendToolResult({ tool: "run_tests", result: output, callId: "call_1" });
console.log(result.action, "-", result.reason);
console.log("the model sees:", result.content);

// The model asks for the part it needs, in the same turn, with the short ref it was shown.
const get = new ArtifactsGetTool({ store, session });
console.log(
  "artifacts_get:",
  await get.handle({ ref: result.hint!.artifact_reference, selector: { mode: "grep", pattern: "FAILED", context: 0 } }),
);

// The transcript line holds the reference, not the payload; the reader rehydrates it byte-exact.
const transcript = await readTranscript(path);
console.log("transcript line:", JSON.stringify(transcript.entries[0]).length, "chars");
const back = await rehydrateTranscript(transcript, { store });
console.log("rehydrated byte-exact:", back.entries[0]!.content === output);
