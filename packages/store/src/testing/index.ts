/**
 * The driver contract suite. Every driver's tests call `runDriverContract` (the raw
 * key-value contract) and `runStoreContract` (ArtifactStore over the driver: dedupe,
 * caps, integrity, references, TTL, gc, verify, concurrency, corruption).
 *
 *   import { runDriverContract, runStoreContract } from "@artifact-refs/store/testing";
 *   runDriverContract("fs", async () => ({ driver: new FsDriver({ root: await mkdtemp(...) }) }));
 */
export { runDriverContract } from "./driver-contract.js";
export { runStoreContract } from "./store-contract.js";
export { runRecordsContract } from "./records-contract.js";
export type { DriverHarness, DriverFactory } from "./harness.js";
export { runChunkedContract, generatedLog } from "./chunked-contract.js";
export { ReferenceWriteHold, StagedMemoryDriver } from "./staged-driver.js";
