import { runDriverContract, runStoreContract } from "@artifact-refs/store/testing";
import { fsFactory } from "./helpers.js";

runDriverContract("fs", fsFactory(), { multiInstance: true });
runStoreContract("fs", fsFactory(), { multiInstance: true });
runDriverContract("fs gzip", fsFactory({ gzip: true }), { multiInstance: true });
runStoreContract("fs gzip", fsFactory({ gzip: true }), { multiInstance: true });
runStoreContract("fs without fsync", fsFactory({ fsync: false }), { multiInstance: true });
