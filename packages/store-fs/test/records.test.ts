import { runRecordsContract } from "@artifact-refs/store/testing";
import { fsFactory } from "./helpers.js";

// Session records (executions, chat turns, metrics) over the fs driver, plain and gzip.
runRecordsContract("fs", fsFactory());
runRecordsContract("fs gzip", fsFactory({ gzip: true }));
