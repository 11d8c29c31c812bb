import { z } from "zod";
import type { RouteDef } from "./route.js";

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
};

/** OpenAPI 3.1 document generated from the routes' zod schemas (the same ones that validate requests). */
export function openApiDocument(
  routes: RouteDef<any, any, any>[],
  info: { title: string; version: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z_]+)/g, "{$1}");
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ["path", route.params],
      ["query", route.query],
    ] as const) {
      if (!schema) continue;
      const json = toSchema(schema, "input");
      const props = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, prop] of Object.entries(props)) {
        const { description, ...propSchema } = prop;
        parameters.push({
          name,
          in: where,
          required: where === "path" || required.has(name),
          schema: propSchema,
          ...(description ? { description } : {}),
        });
      }
    }
    const op: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${route.url.replace(/[/:{}-]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(route.auth ? {} : { security: [] }),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, doc]) => [
          status,
          {
            description: doc.description,
            ...(doc.schema
              ? { content: { [doc.contentType ?? "application/json"]: { schema: toSchema(doc.schema, "output") } } }
              : {}),
          },
        ]),
      ),
    };
    if (route.body)
      op.requestBody = { required: true, content: { "application/json": { schema: toSchema(route.body, "input") } } };
    if (route.rawBody) {
      op.requestBody = {
        required: true,
        content: {
          "application/octet-stream": { schema: { type: "string", format: "binary" } },
          "text/plain": { schema: { type: "string" } },
          ...(route.jsonEnvelope ? { "application/json": { schema: toSchema(route.jsonEnvelope, "input") } } : {}),
        },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      ...info,
      description: "artifact-refs HTTP API: stash, bounded fetch, sessions, tool executions, chat context, metrics.",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths,
  };
}
