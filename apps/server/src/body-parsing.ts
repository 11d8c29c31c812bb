import type { FastifyInstance } from "fastify";
import { ArefError } from "@artifact-refs/schema";

/** JSON and every `application/<vendor>+json` type (RFC 6839 structured suffix). */
export const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json(?:\s*;.*)?$/i;

/** Keys that would poison prototypes if a consumer merged the object: refused with a clear message. */
const POISON_HINT = /"(?:__proto__|constructor)"\s*:/;

function poisonedKey(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  let steps = 0;
  while (stack.length > 0 && steps++ < 1_000_000) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Object.hasOwn(v, "__proto__")) return "__proto__";
    const ctor = (v as Record<string, unknown>).constructor;
    if (
      Object.hasOwn(v, "constructor") &&
      ctor !== null &&
      typeof ctor === "object" &&
      Object.hasOwn(ctor, "prototype")
    )
      return "constructor.prototype";
    for (const child of Object.values(v)) if (child !== null && typeof child === "object") stack.push(child);
  }
  return undefined;
}

/**
 * Parses JSON bodies (application/json and any +json type) with clear errors: not JSON, empty,
 * or a `__proto__` / `constructor.prototype` key (named as such, not called invalid JSON).
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: "string" }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(
        new ArefError("INVALID_INPUT", "the body is empty but its Content-Type is JSON", {
          hint: "send a JSON body, or drop the Content-Type header",
        }),
        undefined,
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      done(
        new ArefError("INVALID_INPUT", `the body is not valid JSON: ${(error as Error).message.slice(0, 200)}`, {
          hint: "send valid JSON",
        }),
        undefined,
      );
      return;
    }
    const poisoned = POISON_HINT.test(text) ? poisonedKey(value) : undefined;
    if (poisoned !== undefined) {
      done(
        new ArefError("INVALID_INPUT", `the body has a ${poisoned} key, which is refused (prototype pollution)`, {
          hint: `remove the ${poisoned} key`,
        }),
        undefined,
      );
      return;
    }
    done(null, value);
  });
}
