import { schema } from "@elo/db";
import { CSV_IMPORT_CHUNK, type CsvRawRow } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServerBundle, spawnServer, type ChildServer } from "../support/child-server";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { mutate } from "./storm";

/**
 * The server killed (SIGKILL: no graceful close) in the middle of an admin CSV import sent in
 * chunks as CsvImportCard does. Each row is its own upsert (decision 050), so what is stored must
 * be whole rows, and re-running the whole file on a restarted server must complete with no
 * duplicate school.
 */
const ROWS = 500;
const KILL_AFTER_CHUNKS = 8;

const rows: CsvRawRow[] = Array.from({ length: ROWS }, (_, i) => ({
  index: i + 1,
  name: `Escola Carga ${String(i + 1).padStart(3, "0")}`,
  categoria: "Outros",
  modalidade: "Música",
  city: "Curitiba",
  uf: "PR",
  neighborhood: "",
  address: `Rua da Carga, ${i + 1}`,
  phone: `41${String(30000000 + i)}`,
  whatsapp: "",
  cep: "",
}));
const expected = new Map(rows.map((r) => [r.name, r]));
const chunks = Array.from({ length: Math.ceil(ROWS / CSV_IMPORT_CHUNK) }, (_, i) => rows.slice(i * CSV_IMPORT_CHUNK, (i + 1) * CSV_IMPORT_CHUNK));

describe.skipIf(!onRealPostgres())("crash in the middle of a CSV import (real PostgreSQL, spawned built server)", () => {
  let h: Harness;
  let bundle: ReturnType<typeof buildServerBundle>;
  const servers: ChildServer[] = [];
  let cookie: string;

  beforeAll(async () => {
    h = await createHarness({ poolMax: 4 });
    bundle = buildServerBundle();
    cookie = await sessionCookie(h, (await createAdmin(h)).id);
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) await s.dispose();
    bundle?.remove();
    await h?.close();
  });

  const stored = () =>
    h.db
      .select({ name: schema.schools.name, address: schema.schools.address, phone: schema.schools.phone, city: schema.schools.city, uf: schema.schools.uf, cityId: schema.schools.cityId, categoryId: schema.schools.categoryId, modalityId: schema.schools.modalityId })
      .from(schema.schools)
      .where(eq(schema.schools.origin, "csv"));

  /** Every stored school is one of the file's rows with all its cells, never a part of one. */
  async function expectWholeRows() {
    const all = await stored();
    for (const s of all) {
      const row = expected.get(s.name);
      expect(row, s.name).toBeDefined();
      expect({ address: s.address, phone: s.phone?.replace(/\D/g, ""), city: s.city, uf: s.uf }).toEqual({ address: row!.address, phone: row!.phone, city: "Curitiba", uf: "PR" });
      expect([s.cityId, s.categoryId, s.modalityId].every((v) => v !== null), s.name).toBe(true);
    }
    const dup = await h.db
      .select({ nameKey: schema.schools.nameKey })
      .from(schema.schools)
      .where(eq(schema.schools.origin, "csv"))
      .groupBy(schema.schools.nameKey)
      .having(sql`count(*) > 1`);
    expect(dup).toEqual([]);
    return all.length;
  }

  it(`SIGKILL while chunk ${KILL_AFTER_CHUNKS + 1} of ${chunks.length} is importing: whole rows only; the re-run completes with no duplicate`, async () => {
    const first = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url);
    servers.push(first);
    for (const chunk of chunks.slice(0, KILL_AFTER_CHUNKS)) {
      const res = await mutate(first.url, "admin.csv.import", { rows: chunk }, cookie);
      expect(res.status, res.body).toBe(200);
    }
    // Send the next chunk and kill the process as soon as its first row is stored.
    const inFlight = mutate(first.url, "admin.csv.import", { rows: chunks[KILL_AFTER_CHUNKS]! }, cookie);
    const doneBefore = KILL_AFTER_CHUNKS * CSV_IMPORT_CHUNK;
    const deadline = Date.now() + 10_000;
    while ((await stored()).length <= doneBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    first.proc.kill("SIGKILL");
    const cut = await inFlight;
    const exit = await first.exited;
    expect(exit.signal).toBe("SIGKILL");

    const survived = await expectWholeRows();
    console.log(`[csv-crash] ${JSON.stringify({ rows: ROWS, chunk: CSV_IMPORT_CHUNK, storedAtKill: survived, inFlightAnswer: cut.status })}`);
    expect(survived).toBeGreaterThan(doneBefore);
    expect(survived).toBeLessThanOrEqual(doneBefore + CSV_IMPORT_CHUNK);

    // The admin imports the same file again, whole, on the restarted server.
    const second = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url);
    servers.push(second);
    const totals = { created: 0, updated: 0, errors: 0 };
    const t0 = Date.now();
    for (const chunk of chunks) {
      const res = await mutate(second.url, "admin.csv.import", { rows: chunk }, cookie);
      expect(res.status, res.body).toBe(200);
      const r = JSON.parse(res.body).result.data.json as typeof totals;
      totals.created += r.created;
      totals.updated += r.updated;
      totals.errors += r.errors;
    }
    console.log(`[csv-crash] re-run ${JSON.stringify({ ...totals, ms: Date.now() - t0 })}`);
    expect(totals).toEqual({ created: ROWS - survived, updated: survived, errors: 0 });
    expect(await expectWholeRows()).toBe(ROWS);
  }, 180_000);
});

it.skipIf(onRealPostgres())("crash tests need real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});
