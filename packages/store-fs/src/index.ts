export class FsDriver { constructor(_o: { root: string; gzip?: boolean }) { throw new Error("not built yet"); } }
