import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FIRST_LOAD_BUDGET_KB, FIRST_LOAD_ROUTES, measureFirstLoad } from "../../../bench/measures/firstload";
import { findServerMarkers } from "./support/bundle-markers";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const assets = path.join(root, "apps/web/dist/assets");
const libraryText = (file: string) => readFileSync(path.join(root, "node_modules", file), "utf8");

describe("web bundle", () => {
  it("the markers recognise the real server libraries (so the check below can fail)", () => {
    expect(findServerMarkers(libraryText("drizzle-orm/table.utils.js")).join()).toMatch(/^drizzle-orm/);
    expect(findServerMarkers(libraryText("fastify/lib/errors.js")).join()).toMatch(/^fastify/);
    expect(findServerMarkers(libraryText("postgres/src/connection.js")).join()).toMatch(/postgres driver/);
    expect(findServerMarkers("const h = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';").join()).toMatch(/argon2/);
    expect(findServerMarkers('pgTable("users", { passwordHash: text("password_hash") })').join()).toMatch(/password hash/);
  });

  it("contains no server code", () => {
    const files = readdirSync(assets).filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.flatMap((f) => findServerMarkers(readFileSync(path.join(assets, f), "utf8")).map((m) => `${f}: ${m}`));
    expect(offenders).toEqual([]);
  });

  it(`every first-load route (${Object.keys(FIRST_LOAD_ROUTES).join(", ")}) stays within ${FIRST_LOAD_BUDGET_KB} KB of gzipped JavaScript (decision 082)`, () => {
    // The bench's measurement (figure 5), on the build these scenarios run against.
    const { routes } = measureFirstLoad(path.join(root, "apps/web/dist"));
    expect(Object.keys(routes)).toEqual(Object.keys(FIRST_LOAD_ROUTES));
    const over = Object.entries(routes)
      .filter(([, r]) => r.gzipKb > FIRST_LOAD_BUDGET_KB)
      .map(([route, r]) => `${route}: ${r.gzipKb} KB`);
    console.log(JSON.stringify({ firstLoadKb: Object.fromEntries(Object.entries(routes).map(([route, r]) => [route, r.gzipKb])) }));
    expect(over).toEqual([]);
  });
});
