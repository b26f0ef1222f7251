import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServerBundle, spawnServer, type ChildServer } from "../support/child-server";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { eventually, networkSchool, visibleText } from "./helpers";

/**
 * Issue 26, point 5: two built servers on one PostgreSQL keep rendered public pages in their own
 * caches; a change written anywhere (here by a third connection, as psql or a job would) reaches
 * both through NOTIFY, well within the 60 s the issue allows.
 */
describe.skipIf(!onRealPostgres())("public pages' cache across two server processes", () => {
  let h: Harness;
  let bundle: ReturnType<typeof buildServerBundle>;
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    h = await createHarness({ poolMax: 4 });
    bundle = buildServerBundle();
    const url = (h.dbHandle as { url: string }).url;
    [a, b] = await Promise.all([spawnServer(bundle.bundle, url), spawnServer(bundle.bundle, url)]);
  }, 180_000);
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    bundle?.remove();
    await h?.close();
  });

  it("a benefit's slots, a school's name and a benefit's pause reach both processes' pages", async () => {
    const { school, benefits } = await networkSchool(h, { name: "Escola Dois Processos", uf: "PE", city: "Recife", neighborhood: "Boa Viagem", benefits: [{ className: "Surfe", slots: 7 }] });
    const path = `/escolas/pe/recife/${school.id}-escola-dois-processos`;
    const text = async (server: ChildServer, p = path) => {
      const res = await fetch(server.url + p, { redirect: "manual" });
      return { status: res.status, etag: res.headers.get("etag"), text: res.status === 200 ? visibleText(await res.text()) : "" };
    };
    // Both processes have the page cached, with the same ETag (same bytes), and answer 304 to it.
    const [pa, pb] = [await text(a), await text(b)];
    expect(pa.text).toContain("Vagas restantes 7");
    expect(pa.etag).toBe(pb.etag);
    expect((await fetch(a.url + path, { headers: { "if-none-match": pa.etag! } })).status).toBe(304);
    expect((await fetch(b.url + path, { headers: { "if-none-match": pa.etag! } })).status).toBe(304);

    // A claim's slot update (no marketplace trigger fires for it) still reaches both.
    const started = Date.now();
    await h.db.update(schema.discounts).set({ numberOfStudents: 6 }).where(eq(schema.discounts.id, benefits[0]!.id));
    for (const server of [a, b]) await eventually(async () => expect((await text(server)).text).toContain("Vagas restantes 6"));
    expect(Date.now() - started).toBeLessThan(5_000);

    // A paused benefit leaves the city page of both.
    expect((await text(a, "/escolas/pe/recife")).text).toContain("Surfe");
    expect((await text(b, "/escolas/pe/recife")).text).toContain("Surfe");
    await h.db.update(schema.discounts).set({ status: "paused" }).where(eq(schema.discounts.id, benefits[0]!.id));
    for (const server of [a, b]) await eventually(async () => expect((await text(server, "/escolas/pe/recife")).text).not.toContain("Surfe"));

    // A new name: both answer 301 to the new address.
    await h.db.update(schema.schools).set({ name: "Escola Dois Processos Nova" }).where(eq(schema.schools.id, school.id));
    for (const server of [a, b]) await eventually(async () => expect((await text(server)).status).toBe(301));
  });
});
