import { isTypeFetchFailure } from "@elo/db";
import { describe, expect, it } from "vitest";

/** Decision 222: the one unhandled rejection the server survives is postgres.js's own type query. */
describe("isTypeFetchFailure", () => {
  it("names the driver's own query, nothing else", () => {
    const query = "\n      select b.oid, b.typarray\n      from pg_catalog.pg_type a\n      left join pg_catalog.pg_type b on b.oid = a.typelem\n";
    expect(isTypeFetchFailure(Object.assign(new Error("read ECONNRESET"), { query }))).toBe(true);
    expect(isTypeFetchFailure(Object.assign(new Error("boom"), { query: "select 1" }))).toBe(false);
    expect(isTypeFetchFailure(new Error("boom"))).toBe(false);
    expect(isTypeFetchFailure(null)).toBe(false);
    expect(isTypeFetchFailure("pg_catalog.pg_type")).toBe(false);
  });
});
