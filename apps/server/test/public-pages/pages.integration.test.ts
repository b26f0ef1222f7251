import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { createSchool, createStaff } from "../support/factories/schools";
import { canonical, eventually, jsonLd, meta, networkSchool, setSchool, textValues, visibleText } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: "manual", ...init });

describe("public pages: the network's states, cities and schools (issue 26)", () => {
  it("renders every page kind with its canonical, noindex rules, JSON-LD found in the text, 301, 404 and 410", async () => {
    const english = await networkSchool(h, {
      name: "Inglês São José",
      niche: "Idiomas",
      neighborhood: "Pinheiros",
      benefits: [{ className: "Inglês Kids", percentage: 30, monthlyFee: 400, slots: 5 }, { className: "Inglês Teens", percentage: 15, monthlyFee: 500, scope: "city" }],
    });
    const basic = await networkSchool(h, { name: "Colégio Pinheiros Alto", niche: "Ed. Básica", plan: null, neighborhood: "Pinheiros" });
    const noStaff = await createSchool(h, { name: "Escolinha Sem Equipe", niche: "Clubes", neighborhood: "Butantã" });
    const switchedOff = await networkSchool(h, { name: "Robótica Escondida", niche: "Tecnologia", benefits: [{ className: "Robôs" }] });
    await setSchool(h, switchedOff.school.id, { publicPage: false });
    const other = await networkSchool(h, { name: "Escola do Rio", uf: "RJ", city: "Rio de Janeiro", neighborhood: "Tijuca", plan: null });

    // /escolas: the states with listed schools.
    const states = await get("/escolas");
    expect(states.status).toBe(200);
    const statesHtml = await states.text();
    expect(statesHtml).toMatch(/^<!DOCTYPE html><html lang="pt-BR">/);
    expect(canonical(statesHtml)).toBe(`${TEST_ORIGIN}/escolas`);
    expect(visibleText(statesHtml)).toContain("São Paulo (SP)");
    expect(visibleText(statesHtml)).toContain("Rio de Janeiro (RJ)");
    expect(statesHtml).toContain('action="/escolas"');

    // /escolas/sp: its cities; a UF in capitals answers 301 to the lower-case address.
    const sp = await (await get("/escolas/sp")).text();
    expect(sp).toContain('href="/escolas/sp/sao-paulo"');
    expect(canonical(sp)).toBe(`${TEST_ORIGIN}/escolas/sp`);
    const upper = await get("/escolas/SP");
    expect(upper.status).toBe(301);
    expect(upper.headers.get("location")).toBe("/escolas/sp");

    // The city: schools by niche and neighborhood (those without staff by name only), benefits offered there.
    const cityRes = await get("/escolas/sp/sao-paulo");
    expect(cityRes.status).toBe(200);
    const city = await cityRes.text();
    const cityText = visibleText(city);
    const englishPath = `/escolas/sp/sao-paulo/${english.school.id}-ingles-sao-jose`;
    expect(city).toContain(`href="${englishPath}"`);
    expect(city).toContain(`href="/escolas/sp/sao-paulo/${basic.school.id}-colegio-pinheiros-alto"`);
    expect(cityText).toContain("Escolinha Sem Equipe");
    expect(city).not.toContain(noStaff.id);
    expect(cityText).not.toContain("Robótica Escondida");
    expect(cityText).toContain("Inglês Kids");
    expect(meta(city, 'name="robots"')).toBe("index, follow");
    const cityLd = jsonLd(city);
    expect(cityLd.map((b) => b["@type"])).toEqual(["BreadcrumbList", "ItemList"]);
    for (const value of cityLd.flatMap((b) => textValues(b))) expect(cityText).toContain(value);

    // The school: its benefits with fee before and after, who qualifies, JSON-LD all in the text.
    const schoolRes = await get(englishPath);
    expect(schoolRes.status).toBe(200);
    const school = await schoolRes.text();
    const schoolText = visibleText(school);
    expect(canonical(school)).toBe(`${TEST_ORIGIN}${englishPath}`);
    expect(meta(school, 'name="robots"')).toBe("index, follow");
    expect(meta(school, 'property="og:title"')).toContain("Inglês São José");
    expect(schoolText).toContain("R$ 400,00");
    expect(schoolText).toContain("R$ 280,00");
    expect(schoolText).toContain("30% de desconto");
    expect(schoolText).toContain("Os 3 primeiros meses");
    expect(schoolText).toContain("Alunos de escolas de outro nicho (não Idiomas) de toda a rede Elo Escolar");
    expect(schoolText).toContain("Alunos de escolas de outro nicho (não Idiomas) da cidade de São Paulo");
    expect(school).toContain(`href="/quero-este-desconto/${english.benefits[0]!.id}"`);
    expect(school).toContain("https://wa.me/?text=");
    const ld = jsonLd(school);
    const org = ld.find((b) => b["@type"] === "EducationalOrganization")!;
    expect(org).toMatchObject({ name: "Inglês São José", address: { "@type": "PostalAddress", addressLocality: "São Paulo", addressRegion: "SP" } });
    expect((org.makesOffer as unknown[]).length).toBe(2);
    for (const value of ld.flatMap((b) => textValues(b))) expect(schoolText).toContain(value);

    // A school with no benefit of its own: noindex, follow; what others offer its families.
    const basicPage = await (await get(`/escolas/sp/sao-paulo/${basic.school.id}-colegio-pinheiros-alto`)).text();
    expect(meta(basicPage, 'name="robots"')).toBe("noindex, follow");
    expect(jsonLd(basicPage).find((b) => b["@type"] === "School")).toBeTruthy();
    expect(visibleText(basicPage)).toContain("Benefícios para alunos desta escola");
    expect(visibleText(basicPage)).toContain("Inglês Kids");
    // A city with no current benefit is noindex too.
    expect(meta(await (await get("/escolas/rj/rio-de-janeiro")).text(), 'name="robots"')).toBe("noindex, follow");

    // A changed name: 301 to the new slug; an old or missing slug alike.
    await setSchool(h, english.school.id, { name: "Inglês São José Kids" });
    // The change reaches the cache through NOTIFY, asynchronously.
    const moved = await eventually(async () => {
      const res = await get(englishPath);
      expect(res.status).toBe(301);
      return res;
    });
    expect(moved.headers.get("location")).toBe(`/escolas/sp/sao-paulo/${english.school.id}-ingles-sao-jose-kids`);
    expect((await get(`/escolas/sp/sao-paulo/${english.school.id}`)).headers.get("location")).toBe(`/escolas/sp/sao-paulo/${english.school.id}-ingles-sao-jose-kids`);

    // 410: a school without staff, switched off, or hidden by an admin; 404: no such school, city or path.
    expect((await get(`/escolas/sp/sao-paulo/${noStaff.id}-escolinha-sem-equipe`)).status).toBe(410);
    expect((await get(`/escolas/sp/sao-paulo/${switchedOff.school.id}-robotica-escondida`)).status).toBe(410);
    await setSchool(h, other.school.id, { publicHiddenAt: new Date() });
    const gone = await get(`/escolas/rj/rio-de-janeiro/${other.school.id}-escola-do-rio`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('action="/escolas"');
    await eventually(async () => expect((await get("/escolas/rj/rio-de-janeiro")).status).toBe(404));
    expect((await get(`/escolas/sp/sao-paulo/00000000-0000-4000-8000-000000000000-nada`)).status).toBe(404);
    expect((await get("/escolas/sp/cidade-que-nao-existe")).status).toBe(404);
    expect((await get("/escolas/zz")).status).toBe(404);
    const missing = await get("/uma-pagina-que-nao-existe");
    expect(missing.status).toBe(404);
    const missingHtml = await missing.text();
    expect(missingHtml).toMatch(/<form class="search"[^>]*action="\/escolas" method="get"/);
    expect(missingHtml).toContain('href="/escolas/sp/sao-paulo"');
    expect(meta(missingHtml, 'name="robots"')).toBe("noindex, follow");
  });

  it("sends a shared link with a final slash, capitals or doubled slashes to the page's address with 301 (decision 226)", async () => {
    const { school, benefits } = await networkSchool(h, { name: "Barra Final Idiomas", neighborhood: "Pinheiros", benefits: [{ className: "Inglês" }] });
    const path = `/escolas/sp/sao-paulo/${school.id}-barra-final-idiomas`;
    const variants: Array<[string, string]> = [
      ["/escolas/", "/escolas"],
      ["/escolas/?q=barra", "/escolas?q=barra"],
      ["/ESCOLAS", "/escolas"],
      ["/escolas/sp/", "/escolas/sp"],
      ["/escolas/sp/sao-paulo/", "/escolas/sp/sao-paulo"],
      ["//escolas//sp/sao-paulo", "/escolas/sp/sao-paulo"],
      [`${path}/`, path],
      [`${path}//?utm_source=whatsapp`, `${path}?utm_source=whatsapp`],
      [`/Escolas/SP/Sao-Paulo/${school.id.toUpperCase()}-Barra-Final-Idiomas`, path],
      [`/quero-este-desconto/${benefits[0]!.id}/`, `/quero-este-desconto/${benefits[0]!.id}`],
      ["/sitemap.xml/", "/sitemap.xml"],
      // The city's real name, typed or shared with its accent or a space (decision 226 amended).
      ["/escolas/sp/s%C3%A3o-paulo", "/escolas/sp/sao-paulo"],
      ["/escolas/sp/são-paulo", "/escolas/sp/sao-paulo"],
      ["/escolas/SP/S%C3%A3o%20Paulo/", "/escolas/sp/sao-paulo"],
      [`/escolas/sp/s%C3%A3o-paulo/${school.id}-Barra%20Final%20Idiomas?utm_source=whatsapp`, `${path}?utm_source=whatsapp`],
    ];
    for (const [from, to] of variants) {
      const res = await get(from);
      expect(res.status, from).toBe(301);
      expect(res.headers.get("location"), from).toBe(to);
      // One hop: the address it sends to is the page itself (the claim link goes on to /signup).
      expect((await get(to)).status, to).toBe(to.startsWith("/quero") ? 302 : 200);
    }
    // Nothing else is redirected: other addresses, a path that is no page, a look-alike of another site.
    for (const path404 of ["/escolas/sp/sao-paulo/nada/mais", "/uma-pagina/", "//example.com/", "/escolasx/", "/escolas/sp/%20"]) {
      const res = await get(path404);
      expect(res.status, path404).toBe(404);
      expect(res.headers.get("location"), path404).toBeNull();
    }
  });

  it("answers the search box by the server, accent- and case-insensitive", async () => {
    const { school } = await networkSchool(h, { name: "Música Ação Jovem", niche: "Outros", uf: "MG", city: "Belo Horizonte", neighborhood: "Savassi" });
    const bySchool = visibleText(await (await get(`/escolas?q=${encodeURIComponent("musica acao")}`)).text());
    expect(bySchool).toContain("Música Ação Jovem");
    const html = await (await get(`/escolas?q=${encodeURIComponent("BELO horizônte")}`)).text();
    expect(html).toContain('href="/escolas/mg/belo-horizonte"');
    expect(meta(html, 'name="robots"')).toBe("noindex, follow");
    expect(visibleText(await (await get("/escolas?q=zzzzqqq")).text())).toContain('Nada encontrado para "zzzzqqq"');
    expect(school.id).toBeTruthy();
  });

  it("answers 304 to a revalidation with the page's ETag, and gzip when asked", async () => {
    await networkSchool(h, { name: "Escola do Cache", uf: "PR", city: "Curitiba", neighborhood: "Batel" });
    const first = await get("/escolas/pr/curitiba");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const again = await get("/escolas/pr/curitiba", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    // A change to a school of the city gives the page a new ETag.
    await networkSchool(h, { name: "Outra Escola do Cache", uf: "PR", city: "Curitiba", neighborhood: "Batel" });
    const changed = await eventually(async () => {
      const res = await get("/escolas/pr/curitiba", { headers: { "if-none-match": etag } });
      expect(res.status).toBe(200);
      return res;
    });
    expect(visibleText(await changed.text())).toContain("Outra Escola do Cache");
  });

  it("keeps the staff's own school rows apart: approval matters, not a pending request", async () => {
    const pending = await createSchool(h, { name: "Escola Pendente", uf: "BA", city: "Salvador", neighborhood: "Barra" });
    await createStaff(h, pending.id, "pending");
    expect((await get(`/escolas/ba/salvador/${pending.id}-escola-pendente`)).status).toBe(410);
    expect(visibleText(await (await get("/escolas/ba/salvador")).text())).toContain("Escola Pendente");
  });
});
