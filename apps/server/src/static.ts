import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".ico": "image/x-icon",
  ".png": "image/png",
};

/** The built UI (dist/web), found next to the built server (dist/) or from the sources (src/ → ../dist/web). */
export function findWebRoot(): string | undefined {
  const here = fileURLToPath(new URL(".", import.meta.url));
  for (const candidate of [join(here, "web"), join(here, "..", "dist", "web")]) {
    if (existsSync(join(candidate, "index.html"))) return candidate;
  }
  return undefined;
}

function files(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? files(root, abs) : [relative(root, abs).split(sep).join("/")];
  });
}

/**
 * Serves the built web UI: a handful of files read once into memory at startup, with a
 * strict Content-Security-Policy (no external requests, no inline scripts).
 */
export function serveWeb(app: FastifyInstance, root: string): void {
  const csp =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
  for (const file of files(root)) {
    const body = readFileSync(join(root, file));
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    const cache = file.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
    const urls = file === "index.html" ? ["/", "/index.html"] : [`/${file}`];
    for (const url of urls) {
      app.get(url, { exposeHeadRoute: true }, async (_req, reply) => {
        reply
          .type(type)
          .header("cache-control", cache)
          .header("content-security-policy", csp)
          .header("x-content-type-options", "nosniff");
        return body;
      });
    }
  }
}
