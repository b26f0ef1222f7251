import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import type { CachedPage } from "./cache";
import { send } from "./routes";

/** The landing pages the web build renders to HTML (apps/web/scripts/prerender.mjs), by path. */
export const PRERENDERED = { "/": "index.html", "/para-escolas": "para-escolas.html" } as const;

/** The folder of the build that holds them; the static files plugin must not serve it as is. */
export const PRERENDERED_DIR = "prerendered";

/**
 * Serves / and /para-escolas as the build rendered them (decision 163), with the public origin in
 * their canonical and Open Graph addresses, gzipped once and revalidated by ETag. A build without
 * them leaves both paths to the app's shell, as before.
 */
export function registerLandingPages(app: FastifyInstance, webDist: string, origin: string) {
  for (const [url, file] of Object.entries(PRERENDERED)) {
    const source = path.join(webDist, PRERENDERED_DIR, file);
    if (!existsSync(source)) continue;
    const body = Buffer.from(readFileSync(source, "utf8").replaceAll("__PUBLIC_ORIGIN__", origin));
    const page: CachedPage = {
      status: 200,
      body,
      gzip: gzipSync(body, { level: 9 }),
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      at: 0,
    };
    app.get(url, (req, reply) => send(req, reply, page));
  }
}
