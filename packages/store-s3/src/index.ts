export class S3Driver { constructor(_o: { bucket: string; prefix?: string; endpoint?: string; region?: string; forcePathStyle?: boolean }) { throw new Error("not built yet"); } }
