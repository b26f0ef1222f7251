import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PageCache } from "../../src/public-pages/cache";
import { createHarness, type Harness } from "../support/harness";
import { eventually, networkSchool, setSchool } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

/** The notifications the public pages' caches hear while `change` runs (migration 0018). */
async function heard(change: () => Promise<unknown>): Promise<string[]> {
  const payloads: string[] = [];
  const unlisten = await h.dbHandle.listen("public_pages_changed", (p) => payloads.push(p));
  try {
    await change();
    await eventually(async () => expect(payloads.length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 100));
    return [...new Set(payloads)].sort();
  } finally {
    await unlisten();
  }
}

describe("the public pages' caches empty per city (decision 162, amended)", () => {
  it("a change names its school's city, or '*' when pages of every city may change", async () => {
    const { school, benefits } = await networkSchool(h, { uf: "RS", city: "Porto Alegre", benefits: [{ scope: "city" }, { scope: "all_except_own" }] });
    const [local, network] = [benefits[0]!, benefits[1]!];
    // A claim's slot update on a benefit open to the city's students: that city only.
    expect(await heard(() => h.db.update(schema.discounts).set({ numberOfStudents: 9 }).where(eq(schema.discounts.id, local.id)))).toEqual(["rs/porto-alegre"]);
    // A benefit open to the whole network shows on school pages of every city.
    expect(await heard(() => h.db.update(schema.discounts).set({ numberOfStudents: 9 }).where(eq(schema.discounts.id, network.id)))).toEqual(["*"]);
    // Its plan and its staff: its city.
    expect(await heard(() => h.db.update(schema.subscriptions).set({ updatedAt: new Date() }).where(eq(schema.subscriptions.schoolId, school.id)))).toEqual(["rs/porto-alegre"]);
    expect(await heard(() => h.db.update(schema.schoolMemberships).set({ decidedAt: new Date() }).where(eq(schema.schoolMemberships.schoolId, school.id)))).toEqual(["rs/porto-alegre"]);
    // A school that moves empties the city it left and the one it joined (accents folded as in its address).
    expect(await heard(() => setSchool(h, school.id, { uf: "SP", city: "São José dos Campos" }))).toEqual(["rs/porto-alegre", "sp/sao-jose-dos-campos"]);
  });

  it("keeps the pages of other cities, and drops those of no one city, on a city's change", async () => {
    const cache = new PageCache();
    const render = (html: string) => async () => ({ status: 200, html });
    await cache.get("/escolas/rs/porto-alegre", render("poa"), "rs/porto-alegre");
    await cache.get("/escolas/rs/porto-alegre/1-escola", render("escola poa"), "rs/porto-alegre");
    await cache.get("/escolas/sp/sao-paulo", render("sp"), "sp/sao-paulo");
    await cache.get("/escolas", render("estados"));
    const rendersAfter = async (city: string) => {
      cache.changed(city);
      let renders = 0;
      const again = (html: string) => async () => (renders++, { status: 200, html });
      await cache.get("/escolas/rs/porto-alegre", again("poa"), "rs/porto-alegre");
      await cache.get("/escolas/rs/porto-alegre/1-escola", again("escola poa"), "rs/porto-alegre");
      await cache.get("/escolas/sp/sao-paulo", again("sp"), "sp/sao-paulo");
      await cache.get("/escolas", again("estados"));
      return renders;
    };
    expect(await rendersAfter("sp/sao-paulo")).toBe(2); // São Paulo's page and the states page
    expect(await rendersAfter("rs/porto-alegre")).toBe(3); // Porto Alegre's two pages and the states page
    expect(await rendersAfter("*")).toBe(4);
    expect(await rendersAfter("discounts")).toBe(4); // an older server's notification: everything
    expect(await rendersAfter("sp/../rs")).toBe(4);
  });
});
