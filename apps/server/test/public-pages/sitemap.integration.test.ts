import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { createSchool } from "../support/factories/schools";
import { meta, networkSchool } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

describe("sitemap.xml and robots.txt (issue 26)", () => {
  it("indexes every indexable page by kind, with lastmod, and each URL answers 200 without noindex", async () => {
    const live = await networkSchool(h, { name: "Escola no Sitemap", uf: "GO", city: "Goiânia", neighborhood: "Setor Bueno", benefits: [{ className: "Balé" }] });
    const quiet = await networkSchool(h, { name: "Escola Sem Benefício", niche: "Ed. Básica", uf: "GO", city: "Goiânia", neighborhood: "Setor Oeste", plan: null });
    await networkSchool(h, { name: "Escola de Anápolis", uf: "GO", city: "Anápolis", plan: null });
    await createSchool(h, { name: "Escola Só Nome", uf: "GO", city: "Goiânia" });

    const index = await fetch(`${server.url}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("application/xml");
    const indexXml = await index.text();
    expect(indexXml).toContain("<sitemapindex");
    const files = locs(indexXml);
    expect(files).toEqual([`${TEST_ORIGIN}/sitemaps/paginas.xml`, `${TEST_ORIGIN}/sitemaps/cidades.xml`, `${TEST_ORIGIN}/sitemaps/escolas-1.xml`]);
    expect(indexXml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T/);

    const urls: string[] = [];
    for (const file of files) {
      const res = await fetch(file.replace(TEST_ORIGIN, server.url));
      expect(res.status, file).toBe(200);
      const xml = await res.text();
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      urls.push(...locs(xml));
    }
    const livePath = `/escolas/go/goiania/${live.school.id}-escola-no-sitemap`;
    expect(urls).toEqual(expect.arrayContaining([`${TEST_ORIGIN}/escolas`, `${TEST_ORIGIN}/escolas/go`, `${TEST_ORIGIN}/escolas/go/goiania`, TEST_ORIGIN + livePath]));
    // Thin pages (no current benefit) stay out: the quiet school, the city of Anápolis.
    expect(urls.join(" ")).not.toContain(quiet.school.id);
    expect(urls.join(" ")).not.toContain("anapolis");
    for (const url of urls) {
      const res = await fetch(url.replace(TEST_ORIGIN, server.url), { redirect: "manual" });
      expect(res.status, url).toBe(200);
      expect(meta(await res.text(), 'name="robots"'), url).toBe("index, follow");
    }
    expect((await fetch(`${server.url}/sitemaps/escolas-2.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/sitemaps/outra.xml`)).status).toBe(404);
  });

  it("robots.txt names the sitemap and keeps the API and claim redirects out", async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
    for (const path of ["/trpc/", "/api/", "/quero-este-desconto/"]) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).not.toMatch(/Disallow: \/escolas/);
  });
});
