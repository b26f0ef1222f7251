import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@elo/db";
import { buildApp } from "../../src/app";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("/healthz with the database unreachable", () => {
  it("answers 503 quickly", async () => {
    // A pool pointed at a port where nothing listens.
    const dead = await openDatabase({ url: "postgres://nobody@127.0.0.1:1/none", poolMax: 1 });
    const app = await buildApp({ ...h.deps, db: dead.db, dbHandle: dead });
    const started = Date.now();
    const res = await app.inject({ url: "/healthz" });
    expect(res.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
    const trpc = await app.inject({ url: "/trpc/reference.states" });
    expect(trpc.statusCode).toBe(503);
    await app.close();
    await dead.close().catch(() => {});
  });
});
