import { MemoryDriver } from "@artifact-refs/store";
import { runDriverContract, runStoreContract } from "@artifact-refs/store/testing";

runDriverContract("memory", async () => ({ driver: new MemoryDriver() }));
runStoreContract("memory", async () => ({ driver: new MemoryDriver() }));
