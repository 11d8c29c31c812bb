export { FsDriver, FsDriverOptionsSchema, SCRATCH_MIN_AGE_MS, type FsDriverOptions } from "./fs-driver.js";
