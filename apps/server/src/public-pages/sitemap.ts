import type { Database } from "@elo/db";
import * as q from "./projection";
import { publicPaths } from "./slug";

/** URLs per sitemap file: the protocol's limit. */
export const SITEMAP_MAX_URLS = 50_000;

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const urlset = (urls: Array<{ loc: string; lastmod?: string }>) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`)
    .join("\n")}\n</urlset>\n`;

/**
 * The sitemaps (decision 161): an index naming one file per kind (the network's pages and states,
 * cities, schools in files of at most SITEMAP_MAX_URLS), listing only pages that are indexable: a
 * city or school without a current benefit is `noindex` and stays out.
 */
export class Sitemaps {
  private read: { version: number; pages: ReturnType<Sitemaps["readIndexable"]> } | null = null;

  /** `version` changes whenever the pages may have changed (the page cache's): the index and its files then read again. */
  constructor(
    private readonly db: Database,
    private readonly origin: string,
    private readonly version: () => number,
  ) {}

  /** The indexable cities and schools, read once for the index and all its files while nothing changes. */
  private indexable() {
    const version = this.version();
    if (this.read?.version !== version) {
      const pages = this.readIndexable();
      this.read = { version, pages };
      pages.catch(() => (this.read?.pages === pages ? (this.read = null) : undefined));
    }
    return this.read.pages;
  }

  private async readIndexable() {
    const [cities, schools] = await Promise.all([q.listCities(this.db, null), q.sitemapSchools(this.db)]);
    const liveCities = cities.filter((c) => c.benefits > 0);
    const liveSchools = schools.filter((s) => s.current);
    return { liveCities, liveSchools };
  }

  /** /sitemap.xml */
  async index(): Promise<string> {
    const { liveCities, liveSchools } = await this.indexable();
    const newest = (dates: string[]) => dates.reduce((a, d) => (d > a ? d : a), "");
    const files: Array<{ loc: string; lastmod: string }> = [
      { loc: `${this.origin}/sitemaps/paginas.xml`, lastmod: newest(liveCities.map((c) => c.lastmod)) },
      { loc: `${this.origin}/sitemaps/cidades.xml`, lastmod: newest(liveCities.map((c) => c.lastmod)) },
    ];
    for (let part = 0; part * SITEMAP_MAX_URLS < liveSchools.length; part++) {
      const chunk = liveSchools.slice(part * SITEMAP_MAX_URLS, (part + 1) * SITEMAP_MAX_URLS);
      files.push({ loc: `${this.origin}/sitemaps/escolas-${part + 1}.xml`, lastmod: newest(chunk.map((s) => s.lastmod)) });
    }
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files
      .map((f) => `<sitemap><loc>${xmlEscape(f.loc)}</loc>${f.lastmod ? `<lastmod>${f.lastmod}</lastmod>` : ""}</sitemap>`)
      .join("\n")}\n</sitemapindex>\n`;
  }

  /** /sitemaps/{name}.xml; null when there is no such file. */
  async file(name: string): Promise<string | null> {
    const { liveCities, liveSchools } = await this.indexable();
    if (name === "paginas") {
      const states = [...new Set(liveCities.map((c) => c.uf))];
      return urlset([{ loc: this.origin + publicPaths.states() }, ...states.map((uf) => ({ loc: this.origin + publicPaths.state(uf) }))]);
    }
    if (name === "cidades") return urlset(liveCities.map((c) => ({ loc: this.origin + publicPaths.city(c.uf, c.slug), lastmod: c.lastmod })));
    const m = /^escolas-([1-9]\d{0,4})$/.exec(name);
    if (!m) return null;
    const part = Number(m[1]) - 1;
    const chunk = liveSchools.slice(part * SITEMAP_MAX_URLS, (part + 1) * SITEMAP_MAX_URLS);
    if (chunk.length === 0 && part > 0) return null;
    return urlset(chunk.map((s) => ({ loc: this.origin + publicPaths.school(s.uf, s.citySlug, s.id, s.name), lastmod: s.lastmod })));
  }
}

/** Paths of the web app that are not for search engines: all but the landing pages (decision 161). */
const INDEXABLE_APP_PATHS = new Set(["/", "/para-escolas"]);

/** /robots.txt: the sitemap, and the signed-in app, the API and the claim redirects kept out. */
export function robotsTxt(origin: string, appPaths: Iterable<string>): string {
  const disallow = ["/trpc/", "/api/", "/files/", "/quero-este-desconto/", ...[...appPaths].filter((p) => p !== "*" && !INDEXABLE_APP_PATHS.has(p)).sort()];
  return `User-agent: *\n${disallow.map((p) => `Disallow: ${p}`).join("\n")}\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;
}
