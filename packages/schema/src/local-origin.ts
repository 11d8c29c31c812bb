/**
 * DNS-rebinding guard for servers that run without authentication on a loopback address:
 * a browser page on `attacker.example` that re-points its name at 127.0.0.1 still sends
 * `Host: attacker.example` (and its own `Origin`), so both are checked against loopback names.
 */
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower-cased; undefined when malformed. */
function hostName(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(v);
  return m?.[1];
}

/** True when a Host header names a loopback host (any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = hostName(host);
  return name !== undefined && LOOPBACK_NAMES.has(name);
}

/**
 * Why a request to an unauthenticated loopback server must be refused (its Host or Origin is
 * not local, or not in `allowedHosts`), or undefined when it may go on.
 */
export function localRequestProblem(
  headers: { host?: string | undefined; origin?: string | undefined },
  allowedHosts: readonly string[] = [],
): string | undefined {
  const allowed = (h: string | undefined) =>
    isLoopbackHost(h) || (h !== undefined && allowedHosts.includes(hostName(h) ?? ""));
  if (!allowed(headers.host))
    return `Host ${JSON.stringify((headers.host ?? "").slice(0, 100))} is not a local address`;
  if (headers.origin !== undefined) {
    const m = /^https?:\/\/([^/]+)$/i.exec(headers.origin.trim());
    if (m === null || !allowed(m[1]))
      return `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is not a local origin`;
  }
  return undefined;
}
