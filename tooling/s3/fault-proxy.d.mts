export interface RequestMatch {
  method?: string;
  bucket?: string;
  /** Exact key, or a pattern tested against the key (path-style: /bucket/<key>). */
  key?: string | RegExp;
  /** Substring of (or pattern tested against) the raw query string, e.g. "uploads", "list-type=2". */
  query?: string | RegExp;
  /** Header conditions: a value, `true` (present) or `false` (absent). Names in lower case. */
  header?: Record<string, string | boolean>;
  predicate?: (info: RequestInfo) => boolean;
}

export interface RequestInfo {
  method: string;
  bucket: string;
  key: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Fault =
  | { status: number; code?: string; message?: string; retryAfterSeconds?: number }
  | { delayMs: number }
  /** before: close the connection unanswered; mid-body: send half the body, then close; stall: send half, then nothing. */
  | { reset: "before" | "mid-body" | "stall" };

export interface FaultRule {
  match?: RequestMatch;
  /** How many matching requests get the fault (default 1; Infinity for all). */
  times?: number;
  fault: Fault;
}

export interface LoggedRequest extends RequestInfo {
  /** Status sent; -1 = reset before the response, -2 = reset mid-body, -3 = stalled mid-body. */
  status: number;
  /** The fault applied, if any ("503", "delay:200", "reset:before", ...). */
  fault?: string;
  /** True when the proxy answered 412 (or 404 for If-Match on a missing key) itself (enforceIfNoneMatch). */
  enforced?: boolean;
  bodyBytes?: number;
  error?: string;
}

export interface FaultProxy {
  endpoint: string;
  port: number;
  requests: LoggedRequest[];
  inject(rule: FaultRule): { hits: number; remaining: number };
  clearFaults(): void;
  clearLog(): void;
  count(match?: RequestMatch): number;
  stop(): Promise<void>;
}

export declare function startFaultProxy(options: {
  target: string;
  /** Enforce conditional writes as AWS S3 does: `If-None-Match: *` and `If-Match` on PUT. */
  enforceIfNoneMatch?: boolean;
  /** Enforce `If-Match` on PUT (default: as enforceIfNoneMatch); false = a server that enforces only If-None-Match. */
  enforceIfMatch?: boolean;
  port?: number;
}): Promise<FaultProxy>;
