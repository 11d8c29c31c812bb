export {
  StoreSpecSchema,
  parseStoreSpec,
  formatStoreSpec,
  storeSpecFrom,
  defaultStoreLocation,
  type StoreSpec,
} from "./spec.js";
export { openDriver, openStore } from "./open.js";
