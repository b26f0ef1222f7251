import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../deps";
import { DatabaseDownError, unlessDatabaseDown } from "../db/deadline";
import { authenticate, replyCookieJar } from "../http/context";
import { isDatabaseUnavailable } from "../trpc/errors";
import { isCurrentBenefit } from "./projection";
import { type CachedPage, PageCache } from "./cache";
import { robotsTxt, Sitemaps } from "./sitemap";
import { benefitIdOf, canonicalPublicTarget } from "./slug";
import { previewVersion, storedPreview } from "./og-image";
import { cityPage, gonePage, notFoundPage, previewFor, type PageContext, type PageResult, schoolPage, statePage, statesPage, unavailablePage } from "./pages";

/** What a cached public page may be kept for by browsers and proxies: always revalidated (ETag, 304). */
const CACHE_CONTROL = "public, max-age=0, must-revalidate";

function asResult(r: PageResult) {
  if (r.kind === "redirect") return { status: r.status, location: r.location, html: "" };
  if (r.kind === "notFound") return { status: 404, alias: NOT_FOUND_KEY, html: "" };
  if (r.kind === "gone") return { status: 410, alias: GONE_KEY, html: "" };
  return { status: r.status, html: r.html };
}
const NOT_FOUND_KEY = "#404";
const GONE_KEY = "#410";

/**
 * The city a city or school page's address names, as the change notifications name it: only that
 * city's changes can change the page (its schools, their benefits, and the benefits open to the
 * city's students; those open to the whole network notify every city).
 */
const cityOf = (uf: string, city: string) => `${uf.toLowerCase()}/${city.toLowerCase()}`;

/** The path of a request, without its query. */
const pathOf = (req: FastifyRequest) => {
  const i = req.url.indexOf("?");
  return i < 0 ? req.url : req.url.slice(0, i);
};

export function send(req: FastifyRequest, reply: FastifyReply, page: CachedPage, type = "text/html; charset=utf-8") {
  reply.header("cache-control", CACHE_CONTROL).header("etag", page.etag).header("vary", "accept-encoding");
  if (page.location) return reply.code(page.status).header("location", page.location).send();
  const match = req.headers["if-none-match"];
  if (match && match.split(",").some((t) => t.trim().replace(/^W\//, "") === page.etag)) return reply.code(304).send();
  reply.code(page.status).type(type);
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) return reply.header("content-encoding", "gzip").send(page.gzip);
  return reply.send(page.body);
}

/** A public page's address with a final slash, capitals or doubled slashes: 301 to the address itself (decision 226). */
function toCanonical(req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const canonical = canonicalPublicTarget(req.url);
  return canonical === null ? undefined : reply.code(301).header("cache-control", CACHE_CONTROL).header("location", canonical).send();
}

export interface PublicPages {
  cache: PageCache;
  context: PageContext;
  /** Answers a GET that no route took with the public 404 page (search box and city list). */
  notFound(req: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}

/** The public pages of the network (decision 160): /escolas and below, server-rendered, cached. */
export async function registerPublicPages(app: FastifyInstance, deps: AppDeps, appPaths: Iterable<string>): Promise<PublicPages> {
  const cache = new PageCache(() => deps.clock.now().getTime());
  await cache.listen(deps.dbHandle, deps.logger);
  app.addHook("onClose", () => cache.close());
  const context: PageContext = { db: deps.db, storage: deps.storage, origin: deps.config.publicOrigin, images: true };

  // While the database is away a public page answers the app's own 503 page, quickly (decision 095),
  // rather than a 500 or a proxy's error page.
  const unavailable = unavailablePage(deps.config.publicOrigin);
  const orUnavailable = async (reply: FastifyReply, work: () => Promise<unknown>) => {
    try {
      return await unlessDatabaseDown(deps.dbHandle, work());
    } catch (error) {
      if (!(error instanceof DatabaseDownError) && !isDatabaseUnavailable(error)) throw error;
      return reply.code(503).header("cache-control", "no-store").header("retry-after", "30").type("text/html; charset=utf-8").send(unavailable);
    }
  };
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/escolas") && !route.url.startsWith("/sitemap") && !route.url.startsWith("/quero-este-desconto")) return;
    const handler = route.handler as (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown;
    route.handler = function (req, reply) {
      // `/escolas/` reaches `/escolas/:uf` with an empty uf: sent to its address, as a path no route took is.
      return toCanonical(req, reply) ?? orUnavailable(reply, async () => handler.call(this, req, reply));
    };
  });

  const shared = (key: string) => cache.get(key, async () => asResult(await (key === GONE_KEY ? gonePage(context) : notFoundPage(context))));
  const serve = async (req: FastifyRequest, reply: FastifyReply, key: string, render: () => Promise<PageResult>, city?: string) => {
    let page = await cache.get(key, async () => asResult(await render()), city);
    // Every missing path shares one rendered 404 page (and every school that left one 410 page).
    if (page.alias) page = await shared(page.alias);
    return send(req, reply, page);
  };

  app.get("/escolas", (req, reply) => {
    const raw = (req.query as { q?: unknown }).q;
    const query = typeof raw === "string" ? raw.trim().slice(0, 80) : "";
    return serve(req, reply, `/escolas?q=${query}`, () => statesPage(context, query));
  });
  app.get("/escolas/:uf", (req, reply) => {
    const { uf } = req.params as { uf: string };
    return serve(req, reply, pathOf(req), () => statePage(context, uf));
  });
  app.get("/escolas/:uf/:city", (req, reply) => {
    const { uf, city } = req.params as { uf: string; city: string };
    return serve(req, reply, pathOf(req), () => cityPage(context, uf, city), cityOf(uf, city));
  });
  app.get("/escolas/:uf/:city/:school", (req, reply) => {
    const { uf, city, school } = req.params as { uf: string; city: string; school: string };
    const path = `/escolas/${uf}/${city}/${school}`;
    return serve(req, reply, path, () => schoolPage(context, school, path), cityOf(uf, city));
  });

  // Preview images (Open Graph): made once per version, kept in the storage; a stale version is sent on to the current one.
  app.get("/escolas/imagem/:kind/:key/:file", async (req, reply) => {
    const { kind, key, file } = req.params as { kind: string; key: string; file: string };
    const data = await previewFor(context, kind, key.toLowerCase());
    if (!data) return send(req, reply, await shared(NOT_FOUND_KEY));
    const version = previewVersion(data);
    if (file !== `${version}.jpg`) return reply.code(302).header("cache-control", "no-cache").header("location", `/escolas/imagem/${kind}/${key.toLowerCase()}/${version}.jpg`).send();
    const jpeg = await storedPreview(deps.storage, `${kind}-${key.toLowerCase()}`, data);
    return reply.header("cache-control", "public, max-age=31536000, immutable").type("image/jpeg").send(jpeg);
  });

  // 'Quero este desconto' (issue 26): a signed-in user goes straight to the benefit on /home, ready
  // to claim; a visitor to /signup, which carries the benefit through the confirmation e-mail.
  app.get("/quero-este-desconto/:id", async (req, reply) => {
    const id = benefitIdOf((req.params as { id: string }).id);
    if (id === null || !(await isCurrentBenefit(deps, id))) return send(req, reply, await shared(NOT_FOUND_KEY));
    const { user } = await authenticate(deps, req, replyCookieJar(deps, req, reply));
    const target = user ? `/home?beneficio=${id}` : `/signup?beneficio=${id}`;
    return reply.code(302).header("cache-control", "no-store").header("location", target).send();
  });

  // The sitemaps and robots.txt, cached with the pages (a change empties them alike).
  const sitemaps = new Sitemaps(deps.db, deps.config.publicOrigin, () => cache.version);
  const sendXml = async (req: FastifyRequest, reply: FastifyReply, key: string, make: () => Promise<string | null>) => {
    const entry = await cache.get(key, async () => {
      const xml = await make();
      return xml === null ? { status: 404, alias: NOT_FOUND_KEY, html: "" } : { status: 200, html: xml };
    });
    if (entry.alias) return send(req, reply, await shared(entry.alias));
    return send(req, reply, entry, "application/xml; charset=utf-8");
  };
  app.get("/sitemap.xml", (req, reply) => sendXml(req, reply, "#sitemap", () => sitemaps.index()));
  app.get("/sitemaps/:name", (req, reply) => {
    const { name } = req.params as { name: string };
    const file = /^([a-z0-9-]{1,40})\.xml$/.exec(name);
    return sendXml(req, reply, `#sitemap/${name}`, async () => (file ? sitemaps.file(file[1]!) : null));
  });
  const robots = robotsTxt(deps.config.publicOrigin, appPaths);
  app.get("/robots.txt", (_req, reply) => reply.header("cache-control", "public, max-age=3600").type("text/plain; charset=utf-8").send(robots));

  return {
    cache,
    context,
    notFound: (req, reply) => toCanonical(req, reply) ?? (orUnavailable(reply, async () => send(req, reply, await shared(NOT_FOUND_KEY))) as Promise<FastifyReply>),
  };
}
