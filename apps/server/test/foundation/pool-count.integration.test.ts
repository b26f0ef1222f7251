import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, onRealPostgres } from "../support/test-db";

/**
 * The pool's in-use and waiting figures (decision 186), counted where queries enter the postgres.js
 * client: exactly `max` in use and the rest waiting under a burst, transactions holding one each,
 * and back to zero after, failures included.
 */
describe.skipIf(!onRealPostgres())("database pool figures (PostgreSQL)", () => {
  let handle: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    handle = await freshDatabase({ poolMax: 3 });
  });
  afterAll(() => handle?.close());

  /** Polls the stats until `want` holds (the pool is asynchronous), else returns the last seen. */
  async function until(want: (s: { inUse: number; waiting: number }) => boolean) {
    let last = handle.pool()!;
    for (let i = 0; i < 100 && !want(last); i++) {
      await new Promise((r) => setTimeout(r, 10));
      last = handle.pool()!;
    }
    return last;
  }

  it("8 slow queries on a pool of 3: 3 in use, 5 waiting, then none", async () => {
    expect(handle.pool()).toEqual({ max: 3, inUse: 0, waiting: 0 });
    // Drizzle's queries are lazy: Promise.all starts them.
    const burst = Promise.all(Array.from({ length: 8 }, () => handle.db.execute(sql`select pg_sleep(0.4)`)));
    expect(await until((s) => s.waiting === 5)).toEqual({ max: 3, inUse: 3, waiting: 5 });
    await burst;
    expect(await until((s) => s.inUse === 0)).toEqual({ max: 3, inUse: 0, waiting: 0 });
  });

  it("a transaction holds one connection until it commits; its own queries are not counted again", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = handle.db.transaction(async (t) => {
      await t.execute(sql`select 1`);
      await t.execute(sql`select 2`);
      await gate;
    });
    const seen = await until((s) => s.inUse === 1);
    expect(seen).toEqual({ max: 3, inUse: 1, waiting: 0 });
    release();
    await tx;
    expect(await until((s) => s.inUse === 0)).toEqual({ max: 3, inUse: 0, waiting: 0 });
  });

  it("failed queries and a rolled-back transaction give their count back", async () => {
    await expect(handle.db.execute(sql`select 1/0`)).rejects.toThrow();
    await expect(handle.db.transaction(async (t) => {
      await t.execute(sql`select 1`);
      throw new Error("desfaz");
    })).rejects.toThrow("desfaz");
    expect(handle.pool()).toEqual({ max: 3, inUse: 0, waiting: 0 });
  });
});

it.skipIf(onRealPostgres())("pool figures need real PostgreSQL (PGlite has no pool)", async () => {
  const handle = await freshDatabase();
  expect(handle.pool()).toBeNull();
  await handle.close();
});
