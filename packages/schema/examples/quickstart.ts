// Run: node --conditions=@artifact-refs/source --import tsx packages/schema/examples/quickstart.ts
import {
  type ArefError,
  HotStateSchema,
  isArefError,
  parseRef,
  parseWith,
  toHandle,
  toShortRef,
} from "@artifact-refs/schema";

const id = "3f9b2a1c8e4d7f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a";
console.log(toHandle(id)); // aref:v1:sha256:3f9b…
console.log(toShortRef(id)); // art:3f9b2a1c8e4d
console.log(parseRef("art:3f9b2a1c8e4d")); // { kind: "prefix", prefix: "3f9b2a1c8e4d", … }

try {
  parseRef("../../etc/passwd");
} catch (error) {
  if (isArefError(error)) console.log(`${error.code}: ${error.message}`);
}

const state = parseWith(
  HotStateSchema,
  {
    session_id: "s1",
    objective: "fix the build",
    artifact_index: [{ artifact_id: toShortRef(id), type: "log", label: "build.log" }],
  },
  "hot state",
);
console.log(JSON.stringify(state));
try {
  parseWith(HotStateSchema, { session_id: "s1", risk_level: "extreme" }, "hot state");
} catch (error) {
  console.log((error as ArefError).message);
}
