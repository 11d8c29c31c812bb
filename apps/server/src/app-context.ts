import type { SelectionPool } from "./selection-pool.js";
import type { ArtifactStore } from "@artifact-refs/store";
import type { Authenticator } from "./auth.js";
import type { ServerKit } from "./kit/types.js";
import type { ByteCache, SelectionCache } from "./selection-cache.js";
import type { ChatProvider } from "./provider.js";
import type { Telemetry } from "./telemetry.js";
import type { ToolRegistry } from "@artifact-refs/tools";

/** Everything a route needs, built once per server. */
export interface AppContext {
  store: ArtifactStore;
  auth: Authenticator;
  tools: ToolRegistry;
  kit: ServerKit;
  telemetry: Telemetry;
  provider: ChatProvider | undefined;
  bodyLimit: number;
  /** Selections of immutable content, keyed by (artifact id, selector). */
  selections: SelectionCache;
  /** Threads for jsonpath/grep selections of large texts (off the event loop). */
  selectionPool: SelectionPool;
  /** How old a session's access check bounded fetch may reuse (ServerOptions.accessCacheMs). */
  accessCacheMs: number;
  /** Serialized fetch receipts, keyed by (artifact id, selector, short ref). */
  receipts: ByteCache;
}
