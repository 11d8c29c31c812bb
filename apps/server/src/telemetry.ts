import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ArtifactStore } from "@artifact-refs/store";

/** The request metrics of one route: the labelled children are looked up once, not on every request. */
export class RouteMeter {
  readonly #byStatus = new Map<number, Counter.Internal>();
  readonly #latency: Histogram.Internal<"method" | "route">;

  constructor(
    private readonly telemetry: Telemetry,
    readonly method: string,
    readonly route: string,
  ) {
    this.#latency = telemetry.latency.labels(method, route);
  }

  observe(status: number, seconds: number): void {
    let requests = this.#byStatus.get(status);
    if (requests === undefined)
      this.#byStatus.set(status, (requests = this.telemetry.requests.labels(this.method, this.route, String(status))));
    requests.inc();
    this.#latency.observe(seconds);
  }
}

/** Prometheus metrics of one server instance (its own registry, so several servers can share a process). */
export class Telemetry {
  readonly registry = new Registry();
  readonly requests: Counter<"method" | "route" | "status">;
  readonly latency: Histogram<"method" | "route">;
  readonly budgetViolations: Counter;
  readonly executions: Counter<"tool" | "status">;

  readonly #meters = new Map<string, RouteMeter>();

  /** The meter of a route pattern (e.g. `GET /api/artifacts/:ref`); routes are few, so meters are kept. */
  meter(method: string, route: string): RouteMeter {
    const key = `${method} ${route}`;
    let meter = this.#meters.get(key);
    if (meter === undefined) this.#meters.set(key, (meter = new RouteMeter(this, method, route)));
    return meter;
  }

  constructor(store: ArtifactStore) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "aref_http_requests_total",
      help: "HTTP requests by method, route and status",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.latency = new Histogram({
      name: "aref_http_request_duration_seconds",
      help: "HTTP request latency by method and route",
      labelNames: ["method", "route"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.budgetViolations = new Counter({
      name: "aref_budget_violations_total",
      help: "Prompt budget violations seen in chat turns",
      registers,
    });
    this.executions = new Counter({
      name: "aref_tool_executions_total",
      help: "Tool executions by tool and status",
      labelNames: ["tool", "status"],
      registers,
    });

    // Store gauges are computed on scrape, at most once every 5 s (stats walk the store).
    let cached: { at: number; stats: Awaited<ReturnType<ArtifactStore["stats"]>> } | undefined;
    const stats = async () => {
      if (!cached || Date.now() - cached.at > 5_000) cached = { at: Date.now(), stats: await store.stats() };
      return cached.stats;
    };
    const gauge = (name: string, help: string, pick: (s: Awaited<ReturnType<ArtifactStore["stats"]>>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(pick(await stats()));
        },
      });
    gauge("aref_store_bytes", "Bytes of distinct content in the store", (s) => s.bytes);
    gauge("aref_store_logical_bytes", "Bytes all references would take without dedupe", (s) => s.logical_bytes);
    gauge("aref_store_artifacts", "Distinct artifacts (blobs) in the store", (s) => s.blobs);
    gauge("aref_store_references", "Session references in the store", (s) => s.references);
    gauge("aref_store_sessions", "Sessions holding references", (s) => s.sessions);
    gauge("aref_store_dedupe_ratio", "logical_bytes / bytes", (s) => s.dedupe_ratio);
  }
}
