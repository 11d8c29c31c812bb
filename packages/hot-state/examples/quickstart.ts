import { createHash } from "node:crypto";
import { createDispatcher } from "@artifact-refs/hot-state";

// The dispatcher gets the writer; everyone else gets the read-only view.
const { writer, view } = createDispatcher({
  session_id: "s1",
  model: "gpt-4o",
  state: { objective: "Fix the failing upload test" },
});

writer.addConstraint("do not change the public API");
writer.addArtifact({
  artifact_id: "3f9b2a1c8e4d7f60a1b2c3d4e5f60718293a4b5c6d7e8f9011223344556677ab",
  type: "log",
  label: "pytest.log",
  summary: "3 failed, 41 passed",
});
writer.addArtifact(
  {
    artifact_id: "a1b2c3d4e5f60718293a4b5c6d7e8f9011223344556677ab3f9b2a1c8e4d7f60",
    type: "code",
    label: "src/upload.py",
  },
  { pinned: true },
);
writer.addDecision("retry uploads on 503");

const built = writer.build();
console.log(built.json);
// {"session_id":"s1","objective":"Fix the failing upload test","constraints":["do not change the public API"],"accepted_decisions":["retry uploads on 503"],"artifact_index":[{"artifact_id":"art:3f9b2a1c8e4d","type":"log","label":"pytest.log","summary":"3 failed, 41 passed"},{"artifact_id":"art:a1b2c3d4e5f6","type":"code","label":"src/upload.py"}]}
console.log(built.tokens, built.bytes, built.truncated); // 104 347 false

// Unchanged state, same bytes (the provider's prompt cache keeps hitting).
console.log(writer.build().json === built.json); // true

// Read-only for everyone else.
try {
  (view.fields() as { objective?: string }).objective = "something else";
} catch (error) {
  console.log((error as Error).constructor.name); // TypeError
}

// Over the caps: evicted by policy, every cut reported with how to get it back.
for (let i = 0; i < 30; i++) {
  writer.addArtifact({
    artifact_id: createHash("sha256").update(`step ${i}`).digest("hex"),
    type: "tool_output",
    label: `step ${i}`,
    summary: "x ".repeat(200),
  });
}
const capped = writer.build();
console.log(capped.state.artifact_index?.length, capped.tokens <= 1000, capped.steps); // 5 true [ 'index_cap', 'evict_unpinned' ]
console.log(capped.cuts[0]?.what); // 12 index candidates beyond the cap
console.log(capped.cuts.at(-1)?.recover); // artifacts_get art:<12 hex>
console.log(capped.metrics); // { hs_tokens, hs_bytes, hs_truncated: true, artifacts, artifact_types }
