import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { TEST_ORIGIN } from "../support/harness";

// What `npm start` does on a clean clone: no DATABASE_URL, so an empty PGlite in DATA_DIR and the demo world.
const dataDir = mkdtempSync(path.join(tmpdir(), "elo-demo-"));
const printed: string[] = [];
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
  const config = loadConfig({ NODE_ENV: "development", DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0" });
  expect(config.demo).toBe(true);
  server = await startServer(config);
}, 180_000);
afterAll(async () => {
  await server?.close();
  vi.restoreAllMocks();
  rmSync(dataDir, { recursive: true, force: true });
});

async function login(email: string, password: string) {
  const res = await fetch(`${server.url}/trpc/auth.login`, {
    method: "POST",
    headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ json: { email, password } }),
  });
  return { status: res.status, cookie: res.headers.get("set-cookie") };
}

describe("demo world on an empty embedded database", () => {
  it("prints the admin, school and parent logins, and each one signs in", async () => {
    const out = printed.join("\n");
    const logins = [...out.matchAll(/^\s+(\S+)\s+(\S+@\S+)\s+\/\s+(\S+)$/gm)].map((m) => ({ who: m[1], email: m[2]!, password: m[3]! }));
    expect(logins.map((l) => l.who)).toEqual(["admin", "escola", "pais"]);
    for (const l of logins) {
      const res = await login(l.email, l.password);
      expect(res.status, l.email).toBe(200);
      expect(res.cookie).toMatch(/elo_session=/);
    }
  });

  it("creates an admin, schools of several niches and neighborhoods with plans and benefits, staff and a complete parent", async () => {
    const db = server.deps.db;
    const [admin] = await db.select({ role: schema.userRoles.role }).from(schema.userRoles).innerJoin(schema.users, eq(schema.users.id, schema.userRoles.userId)).where(eq(schema.users.email, "admin@eloescolar.com.br"));
    expect(admin?.role).toBe("admin");
    const schools = await db.select({ categoryId: schema.schools.categoryId, neighborhood: schema.schools.neighborhood }).from(schema.schools);
    expect(new Set(schools.map((s) => s.categoryId)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(schools.map((s) => s.neighborhood)).size).toBeGreaterThanOrEqual(3);
    expect((await db.select().from(schema.subscriptions)).length).toBeGreaterThan(0);
    expect((await db.select().from(schema.discounts)).length).toBeGreaterThanOrEqual(schools.length);
    const [staff] = await db.select({ status: schema.schoolMemberships.status }).from(schema.schoolMemberships).innerJoin(schema.users, eq(schema.users.id, schema.schoolMemberships.userId)).where(eq(schema.users.email, "escola@eloescolar.com.br"));
    expect(staff?.status).toBe("approved");
    const [parent] = await db.select({ done: schema.profiles.profileCompleted, type: schema.profiles.profileType }).from(schema.profiles).innerJoin(schema.users, eq(schema.users.id, schema.profiles.userId)).where(eq(schema.users.email, "pais@eloescolar.com.br"));
    expect(parent).toEqual({ done: true, type: "parent" });
  });
});
