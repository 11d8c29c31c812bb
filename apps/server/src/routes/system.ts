import { z } from "zod";
import { ArefError } from "@artifact-refs/schema";
import { forbidden } from "../errors.js";
import type { AppContext } from "../app-context.js";
import { defineRoute, type RouteDef } from "../route.js";

export const HealthSchema = z.object({ status: z.literal("ok"), store: z.string(), uptime_s: z.number() });

export function systemRoutes(app: AppContext, openapi: () => Record<string, unknown>): RouteDef<any, any, any>[] {
  const started = Date.now();
  const health = defineRoute({
    method: "GET",
    url: "/healthz",
    summary: "Liveness: the server answers and its store is reachable",
    tags: ["system"],
    auth: false,
    responses: {
      200: { description: "healthy", schema: HealthSchema },
      503: { description: "the store is not reachable" },
    },
    async handler() {
      await app.store.listSessions().catch((cause: unknown) => {
        throw new ArefError("UNAVAILABLE", "the store is not reachable", {
          cause,
          hint: "check the store spec and the backend",
        });
      });
      return { status: "ok", store: app.store.driver.kind, uptime_s: Math.round((Date.now() - started) / 1000) };
    },
  });
  const metrics = defineRoute({
    method: "GET",
    url: "/metrics",
    summary: "Prometheus metrics: store size, artifacts, dedupe ratio, requests, latencies, budget violations",
    tags: ["system"],
    auth: true,
    responses: {
      200: { description: "Prometheus text format", contentType: "text/plain; version=0.0.4", schema: z.string() },
    },
    async handler({ reply, principal }) {
      if (principal.kind !== "admin") throw forbidden("only the admin token may read /metrics");
      reply.type(app.telemetry.registry.contentType);
      return app.telemetry.registry.metrics();
    },
  });
  const doc = defineRoute({
    method: "GET",
    url: "/openapi.json",
    summary: "This API's OpenAPI 3.1 document (generated from the zod schemas)",
    tags: ["system"],
    auth: false,
    responses: { 200: { description: "the document" } },
    async handler() {
      return openapi();
    },
  });
  return [health, metrics, doc];
}
