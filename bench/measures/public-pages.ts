import { writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openDatabase } from "@elo/db";
import postgres from "postgres";
import { cityPage } from "../../apps/server/src/public-pages/pages";
import { diskStorage } from "../../apps/server/src/storage/disk-storage";
import { load } from "../lib/http";
import { startBareServer } from "../lib/processes";
import { median, passes, percentile, round } from "../lib/stats";
import { passSeconds, type MeasureContext } from "./context";

/**
 * Renders of the largest city page measured, after WARM_RENDERS unmeasured (the first ones compile
 * the render's code). 200, so that the p99 is a percentile and not the single slowest render.
 */
const RENDERS = 200;
const WARM_RENDERS = 20;

/** The city with the most listed schools. */
async function largestCity(sql: postgres.Sql): Promise<{ uf: string; slug: string; schools: number }> {
  const [city] = await sql<Array<{ uf: string; slug: string; schools: number }>>`
    select lower(uf_key) as uf, btrim(regexp_replace(city_key, '[^a-z0-9]+', '-', 'g'), '-') as slug, count(*)::int as schools
    from schools where public_hidden_at is null and public_page and uf_key is not null and coalesce(city_key, '') <> ''
    group by 1, 2 order by 3 desc limit 1`;
  if (!city) throw new Error("public pages: the bench's network has no listed school");
  return city;
}

/** The first school page linked from a city page. */
async function firstSchoolPath(origin: string, cityPath: string): Promise<string> {
  const cityHtml = await (await fetch(origin + cityPath)).text();
  const schoolPath = new RegExp(`href="(${cityPath}/[0-9a-f-]{36}-[a-z0-9-]+)"`).exec(cityHtml)?.[1];
  if (!schoolPath) throw new Error(`public pages: no school link on ${cityPath}`);
  return schoolPath;
}

/** The pages of the first-visit figure: the landing page, the largest city and its first school. */
export async function firstVisitPages(ctx: MeasureContext): Promise<Array<{ page: string; path: string }>> {
  const sql = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const city = await largestCity(sql);
    const cityPath = `/escolas/${city.uf}/${city.slug}`;
    return [
      { page: "landing", path: "/" },
      { page: "city", path: cityPath },
      { page: "school", path: await firstSchoolPath(ctx.server.url, cityPath) },
    ];
  } finally {
    await sql.end();
  }
}

/**
 * Issue 26's server figures on the bench's network:
 * - a cached school page (the city's first school with a page) through the app ÷ bare Fastify sending
 *   the same bytes and headers (c10);
 * - an uncached render of the largest city page: its queries and HTML, in this process (the cache is
 *   not in the way), p50/p99;
 * - the school page's HTML + CSS gzipped (the CSS is inline);
 * - the sitemap: the index and every file fetched (the time, and the URL count), then every URL
 *   it names requested (all must answer 200).
 */
export async function measurePublicPages(ctx: MeasureContext) {
  const sql = postgres(ctx.databaseUrl, { max: 2, onnotice: () => {} });
  const handle = await openDatabase({ url: ctx.databaseUrl, poolMax: 4 });
  try {
    const city = await largestCity(sql);
    const cityPath = `/escolas/${city.uf}/${city.slug}`;

    // The uncached render, in this process: `npm run bench` sets NODE_ENV=production, so React renders
    // with its production build, as the server does (its development build is several times slower).
    const storage = diskStorage(path.join(ctx.workDir, "public-pages-storage"), "bench");
    const pageCtx = { db: handle.db, storage, origin: "https://bench.invalid", images: false };
    const times: number[] = [];
    let html = "";
    for (let i = 0; i < RENDERS + WARM_RENDERS; i++) {
      const started = performance.now();
      const r = await cityPage(pageCtx, city.uf, city.slug);
      if (i >= WARM_RENDERS) times.push(performance.now() - started);
      if (r.kind !== "page") throw new Error(`public pages: ${cityPath} rendered ${r.kind}`);
      html = r.html;
    }

    ctx.log(`    ${cityPath} (${city.schools} schools) rendered ${RENDERS} times uncached: p99 ${round(percentile(times, 99), 1)} ms`);

    // A school page of that city, through the app (cached after its first request).
    const schoolPath = await firstSchoolPath(ctx.server.url, cityPath);
    const first = await fetch(ctx.server.url + schoolPath);
    const schoolBytes = Buffer.from(await first.arrayBuffer());
    const pageFile = path.join(ctx.workDir, "school-page.html");
    writeFileSync(pageFile, schoolBytes);
    const bare = await startBareServer("bare-page-server.mjs", { PAGE_FILE: pageFile, PAGE_PATH: schoolPath, PAGE_ETAG: first.headers.get("etag") ?? '"x"' });
    let runs;
    try {
      const requests = [{ method: "GET", path: schoolPath }];
      runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
        const seconds = passSeconds(ctx, warmup);
        const app = await load({ url: ctx.server.url, connections: 10, duration: seconds, requests });
        const base = await load({ url: bare.url, connections: 10, duration: seconds, requests });
        ctx.log(`    public page pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps)} req/s (non-2xx ${app.non2xx}) | bare Fastify ${round(base.rps)} req/s`);
        return { app, base };
      });
    } finally {
      await bare.stop();
    }

    // The sitemap, then every URL it names.
    ctx.log("    sitemap: the index, its files, then every URL they name");
    const sitemapStarted = performance.now();
    const index = await (await fetch(`${ctx.server.url}/sitemap.xml`)).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    const urls: string[] = [];
    for (const file of files) urls.push(...[...(await (await fetch(ctx.server.url + file)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));
    const sitemapMs = performance.now() - sitemapStarted;
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < urls.length) {
          const url = urls[next++]!;
          const res = await fetch(ctx.server.url + url, { redirect: "manual" });
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`${res.status} ${url}`);
        }
      }),
    );

    return {
      city: { path: cityPath, schools: city.schools, bytes: html.length, gzipBytes: gzipSync(html).length },
      uncachedCity: { p50Ms: round(percentile(times, 50), 1), p99Ms: round(percentile(times, 99), 1) },
      school: { path: schoolPath, bytes: schoolBytes.length, gzipKb: round(gzipSync(schoolBytes).length / 1024, 1) },
      cachedRatioPasses: runs.map((r) => r.app.rps / r.base.rps),
      cachedAppRps: round(median(runs.map((r) => r.app.rps))),
      cachedBareRps: round(median(runs.map((r) => r.base.rps))),
      appNon2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
      sitemap: { files: files.length, urls: urls.length, ms: round(sitemapMs, 0), non200: failures.length, examples: failures.slice(0, 5) },
    };
  } finally {
    await handle.close();
    await sql.end();
  }
}
