import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { DatabaseHandle } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";

/** The PostgreSQL channel the triggers of migration 0011 notify when a public page may have changed. */
export const PUBLIC_PAGES_CHANNEL = "public_pages_changed";

/** An entry's longest life, should a notification be lost (the listening connection dropped): the 60 s. */
export const MAX_AGE_MS = 55_000;

export interface CachedPage {
  status: number;
  location?: string;
  /** The key of the shared page this path answers with (the 404 or 410 page). */
  alias?: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
  at: number;
  /** The city ('sp/sao-paulo') whose changes alone can change this page; none: any change can. */
  city?: string;
}

/**
 * Rendered public pages by path (decision 162). Any process's change reaches PostgreSQL's NOTIFY on
 * PUBLIC_PAGES_CHANNEL (a school, its staff, its plan, a benefit, its slots) with the city it touches
 * (migration 0018): the pages of that city go, and those of no one city (states, search, sitemaps,
 * 404); '*' empties everything. An entry never outlives MAX_AGE_MS; concurrent misses of one path
 * share one render.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly pending = new Map<string, Promise<CachedPage>>();
  private generation = 0;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 5000,
  ) {}

  /** Starts listening for changes on this database; resolves once LISTEN is in place. */
  async listen(handle: DatabaseHandle, logger: FastifyBaseLogger): Promise<void> {
    try {
      this.unlisten = await handle.listen(PUBLIC_PAGES_CHANNEL, (city) => this.changed(city));
    } catch (err) {
      logger.warn({ err }, "public pages: LISTEN failed; pages live at most 55 s in the cache");
    }
  }

  /** Changes with every notification: what was read from the database before it may be stale. */
  get version(): number {
    return this.generation;
  }

  async close() {
    await this.unlisten?.().catch(() => undefined);
  }

  clear() {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  /** A change in `city` ('sp/sao-paulo'); anything else ('*', an older server's table name) may touch every page. */
  changed(city: string) {
    if (!/^[a-z]{2}\/[a-z0-9-]+$/.test(city)) return this.clear();
    // Renders under way may have read the change half-way: none of them is kept (see get).
    this.generation++;
    this.pending.clear();
    for (const [key, entry] of this.entries) if (entry.city === undefined || entry.city === city) this.entries.delete(key);
  }

  async get(key: string, render: () => Promise<{ status: number; location?: string; alias?: string; html: string }>, city?: string): Promise<CachedPage> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < MAX_AGE_MS) return hit;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const made = (async () => {
      const at = this.now();
      const result = await render();
      const body = Buffer.from(result.html);
      const entry: CachedPage = {
        status: result.status,
        ...(result.location ? { location: result.location } : {}),
        ...(result.alias ? { alias: result.alias } : {}),
        body,
        gzip: gzipSync(body),
        etag: `"${createHash("sha256").update(body).update(String(result.status)).update(result.location ?? "").digest("base64url").slice(0, 22)}"`,
        at,
        ...(city ? { city } : {}),
      };
      // A change that arrived while rendering may not be in this render: keep it only if none did.
      if (generation === this.generation) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, entry);
      }
      return entry;
    })();
    this.pending.set(key, made);
    try {
      return await made;
    } finally {
      if (this.pending.get(key) === made) this.pending.delete(key);
    }
  }
}
