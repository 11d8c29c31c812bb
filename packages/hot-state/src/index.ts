export { HOT_STATE_KEY_ORDER, INDEX_ENTRY_KEY_ORDER, deepFreeze, serializeHotState } from "./serialize.js";
export { type IndexCandidate, comparePriority, selectTop, shortRefsFor } from "./select.js";
export {
  type BuildStep,
  type HotStateBuild,
  type HotStateBuildInput,
  type HotStateBuildOptions,
  type HotStateMetrics,
  MINIMAL_KEYS,
  buildHotState,
} from "./build.js";
export {
  type Dispatcher,
  type DispatcherOptions,
  type DispatcherSnapshot,
  DispatcherSnapshotSchema,
  type HotStateFields,
  type HotStatePatch,
  type HotStateView,
  type HotStateWriter,
  IndexCandidateSchema,
  type NewArtifact,
  createDispatcher,
} from "./dispatcher.js";
export { type SessionHotStateOptions, sessionHotState } from "./from-store.js";
export type { HotState, ArtifactIndexEntry, Cut } from "@artifact-refs/schema";
