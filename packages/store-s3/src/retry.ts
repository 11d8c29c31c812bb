/**
 * The SDK retry strategy the driver installs (the SDK's RetryStrategyV2 interface, so the
 * SDK's own retry middleware drives it and classifies errors): retries throttling (503
 * SlowDown, 429), transient errors (500/502/503/504, timeouts, connection resets) and
 * 409 conflicts of concurrent conditional writes, with exponential backoff and full jitter.
 */
interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}

interface RetryErrorInfo {
  errorType: "THROTTLING" | "TRANSIENT" | "SERVER_ERROR" | "CLIENT_ERROR";
  error?: unknown;
  retryAfterHint?: Date;
}

export interface RetryPolicy {
  maxAttempts: number;
  retryBaseDelayMs: number;
  throttleBaseDelayMs: number;
  retryMaxDelayMs: number;
}

const CONFLICT_CODES = new Set(["ConditionalRequestConflict", "OperationAborted"]);

/** True for a 409 that S3 asks to retry (a concurrent conditional write on the same key). */
export function isConflict(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.$metadata?.httpStatusCode === 409 && CONFLICT_CODES.has(e.name ?? "");
}

/** Full-jitter exponential backoff: random in [0, min(max, base × 2^retry)). */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  throttled: boolean,
  random: () => number = Math.random,
): number {
  const base = throttled ? policy.throttleBaseDelayMs : policy.retryBaseDelayMs;
  return Math.floor(random() * Math.min(policy.retryMaxDelayMs, base * 2 ** retry));
}

class Token implements RetryToken {
  constructor(
    private readonly count: number,
    private readonly delay: number,
  ) {}
  getRetryCount(): number {
    return this.count;
  }
  getRetryDelay(): number {
    return this.delay;
  }
  getRetryCost(): number | undefined {
    return undefined;
  }
}

export class JitterRetryStrategy {
  readonly mode = "standard";
  constructor(private readonly policy: RetryPolicy) {}

  async acquireInitialRetryToken(_scope: string): Promise<RetryToken> {
    return new Token(0, 0);
  }

  async refreshRetryTokenForRetry(token: RetryToken, info: RetryErrorInfo): Promise<RetryToken> {
    const retry = token.getRetryCount();
    const retryable = info.errorType === "THROTTLING" || info.errorType === "TRANSIENT" || isConflict(info.error);
    if (!retryable || retry + 1 >= this.policy.maxAttempts) throw new Error("no retry token available");
    let delay = backoffDelay(this.policy, retry, info.errorType === "THROTTLING");
    if (info.retryAfterHint instanceof Date) {
      delay = Math.max(delay, Math.min(info.retryAfterHint.getTime() - Date.now(), this.policy.retryMaxDelayMs));
    }
    return new Token(retry + 1, delay);
  }

  recordSuccess(_token: RetryToken): void {}

  async maxAttempts(): Promise<number> {
    return this.policy.maxAttempts;
  }
}
