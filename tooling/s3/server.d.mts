export declare const TEST_REGION: string;
export declare const TEST_CREDENTIALS: { accessKeyId: string; secretAccessKey: string };
export declare const TEST_ENV: Readonly<Record<string, string>>;

export interface S3TestServer {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  port: number;
  region: string;
  credentials: Readonly<{ accessKeyId: string; secretAccessKey: string }>;
  /** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, warning switch: for child processes. */
  env: Readonly<Record<string, string>>;
  /** Creates a bucket (idempotent) and returns its name; without a name, a fresh unique one. */
  createBucket(name?: string): string;
  /** Removes every object of a bucket, keeping the bucket. */
  emptyBucket(name: string): void;
  /** Options for `new S3Client(...)` pointing at this server (path-style, test credentials). */
  clientConfig<T extends object = Record<string, never>>(
    overrides?: T,
  ): {
    endpoint: string;
    region: string;
    forcePathStyle: true;
    credentials: { accessKeyId: string; secretAccessKey: string };
  } & T;
  /** `s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=true`, pointing at `via` (default: this server). */
  storeSpec(bucket: string, prefix?: string, via?: string): string;
  stop(): Promise<void>;
}

export declare function startS3Server(options?: { port?: number; buckets?: string[] }): Promise<S3TestServer>;

/** The same server in a child process: what its client needs, without bucket helpers. */
export interface S3TestServerProcess
  extends Pick<S3TestServer, "endpoint" | "region" | "env" | "clientConfig" | "storeSpec" | "stop"> {
  credentials: { accessKeyId: string; secretAccessKey: string };
  pid: number | undefined;
}

/** The same server in a child process; `buckets` are created at start. */
export declare function startS3ServerProcess(options?: { buckets?: string[] }): Promise<S3TestServerProcess>;
