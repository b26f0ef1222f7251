import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { eventually, meta, networkSchool, setSchool } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

describe("Open Graph previews of schools and cities (issue 26)", () => {
  it("a school's preview is a 1200×630 JPEG under 300 KB at a versioned address, kept in the storage, new when the school changes", async () => {
    const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 200, g: 30, b: 60 } } }).png().toBuffer();
    const { school } = await networkSchool(h, { name: "Escola da Prévia Ilustrada", uf: "CE", city: "Fortaleza", neighborhood: "Aldeota", benefits: [{ className: "Judô", percentage: 35 }] });
    await h.deps.storage.put("school_logos", `${school.id}/logo.png`, logo, "image/png");
    await setSchool(h, school.id, { logoUrl: `${school.id}/logo.png` });
    const path = `/escolas/ce/fortaleza/${school.id}-escola-da-previa-ilustrada`;
    const html = await (await fetch(server.url + path)).text();
    const image = meta(html, 'property="og:image"')!;
    expect(image).toMatch(new RegExp(`^${TEST_ORIGIN}/escolas/imagem/escola/${school.id}/\\w{12}\\.jpg$`));
    expect(meta(html, 'name="twitter:card"')).toBe("summary_large_image");
    expect(meta(html, 'name="twitter:image"')).toBe(image);

    const res = await fetch(image.replace(TEST_ORIGIN, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toContain("immutable");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(300 * 1024);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    // Made once: the storage holds it, and the next request gets the same bytes.
    const stored = await h.deps.storage.list("school_logos", "og/");
    expect(stored.map((e) => e.key)).toEqual([expect.stringMatching(new RegExp(`^og/escola-${school.id}-\\w{12}\\.jpg$`))]);
    expect(Buffer.from(await (await fetch(image.replace(TEST_ORIGIN, server.url))).arrayBuffer()).equals(bytes)).toBe(true);

    // A new best discount: a new address; the old one sends on to it.
    await h.db.execute(`update discounts set discount_percentage = 50, discounted_fee = 250 where school_id = '${school.id}'` as never);
    const changed = await eventually(async () => {
      const now = meta(await (await fetch(server.url + path)).text(), 'property="og:image"')!;
      expect(now).not.toBe(image);
      return now;
    });
    const old = await fetch(image.replace(TEST_ORIGIN, server.url), { redirect: "manual" });
    expect(old.status).toBe(302);
    expect(TEST_ORIGIN + old.headers.get("location")).toBe(changed);
  });

  it("a city's preview too; a page that does not exist has none", async () => {
    await networkSchool(h, { name: "Escola de Natal", uf: "RN", city: "Natal", neighborhood: "Ponta Negra", benefits: [{ className: "Vela" }] });
    const html = await (await fetch(`${server.url}/escolas/rn/natal`)).text();
    const image = meta(html, 'property="og:image"')!;
    expect(image).toMatch(/\/escolas\/imagem\/cidade\/rn-natal\/\w{12}\.jpg$/);
    const bytes = Buffer.from(await (await fetch(image.replace(TEST_ORIGIN, server.url))).arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    expect(bytes.length).toBeLessThan(300 * 1024);
    expect((await fetch(`${server.url}/escolas/imagem/cidade/rn-nenhuma/abc.jpg`)).status).toBe(404);
    expect((await fetch(`${server.url}/escolas/imagem/escola/00000000-0000-4000-8000-000000000000/abc.jpg`)).status).toBe(404);
  });
});
