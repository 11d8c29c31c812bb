export { FsDriver, FsDriverOptionsSchema, SCRATCH_MIN_AGE_MS, type FsDriverOptions } from "./fs-driver.js";
export { DIRECTORY_SETTLE_MS, type ListingWork } from "./dir-cache.js";
export { FILE_PIECES_FRESH, FILE_PIECE_BYTES, readFilePieces } from "./file-pieces.js";
