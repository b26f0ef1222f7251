import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { buildServerBundle, spawnServer, type ChildServer } from "../support/child-server";
import { pngBytes, uploadForm } from "../support/factories/files";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createUser, uniqueEmail } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { MACHINE_REDIS_URL, NO_REDIS, redisAnswers } from "../support/redis";
import { startS3, type TestS3 } from "../support/s3";
import { openProfileStream } from "../support/sse";
import { onRealPostgres } from "../support/test-db";

/**
 * Issue 16, point 3: two built servers (dist/main.js as production runs it) on one PostgreSQL
 * database, one S3 server and one Redis, as behind a load balancer. What one does, the other sees:
 * files, the per-IP limits, sessions and live updates.
 */
const machineRedis = await redisAnswers();
const ready = onRealPostgres() && machineRedis;
if (!ready) console.warn(`several-servers test skipped: ${!onRealPostgres() ? "it needs real PostgreSQL (set TEST_DATABASE_URL)" : NO_REDIS}`);

/** Each test is its own client behind the proxy (TRUST_PROXY), at an address no earlier run used in Redis. */
const clientAddress = () => ({ "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });

describe.skipIf(!ready)("two built servers on one PostgreSQL, one S3 server and one Redis", () => {
  let s3: TestS3;
  let h: Harness;
  let bundle: ReturnType<typeof buildServerBundle>;
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    s3 = await startS3();
    h = await createHarness({ env: s3.env, poolMax: 4 });
    bundle = buildServerBundle();
    const env = { ...s3.env, REDIS_URL: MACHINE_REDIS_URL, RATE_LIMIT: "1", TRUST_PROXY: "127.0.0.1" };
    const url = (h.dbHandle as { url: string }).url;
    [a, b] = await Promise.all([spawnServer(bundle.bundle, url, env), spawnServer(bundle.bundle, url, env)]);
  }, 180_000);
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    bundle?.remove();
    await h?.close();
    await s3?.close();
  });

  const login = (server: ChildServer, email: string, password: string, client: Record<string, string>) =>
    fetch(`${server.url}/trpc/auth.login`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json", ...client },
      body: JSON.stringify({ json: { email, password } }),
    });
  /** A tRPC call as the browser makes it; its result's data. */
  async function trpc(server: ChildServer, procedure: string, cookie: string, input?: unknown) {
    const mutation = input !== undefined;
    const res = await fetch(`${server.url}/trpc/${procedure}`, {
      method: mutation ? "POST" : "GET",
      headers: { cookie, origin: TEST_ORIGIN, ...(mutation ? { "content-type": "application/json" } : {}) },
      body: mutation ? JSON.stringify({ json: input }) : undefined,
    });
    const body = (await res.json()) as { result?: { data: { json: any } }; error?: unknown };
    if (!res.ok) throw new Error(`${procedure} on ${server.url}: ${res.status} ${JSON.stringify(body.error)}`);
    return body.result!.data.json;
  }
  const upload = async (server: ChildServer, route: string, cookie: string) => {
    const res = await fetch(`${server.url}${route}`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN }, body: uploadForm(pngBytes(), "foto.png") });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, string>;
  };
  const bytesAt = async (address: string, base: string) => {
    const res = await fetch(new URL(address, base));
    expect(res.status, address).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  it("a session made by logging in on one server works on the other", async () => {
    const user = await createUser(h);
    const res = await login(a, user.email, user.password, clientAddress());
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(cookie).toMatch(/elo_session=/);
    expect((await trpc(b, "auth.me", cookie))?.email).toBe(user.email);
  });

  it("an avatar uploaded through one server is served through the other, and so is a school logo", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const { avatarUrl } = await upload(a, "/api/uploads/avatar", cookie);
    const key = decodeURIComponent(new URL(avatarUrl!).pathname).split("/avatars/")[1]!;
    const stored = (await h.deps.storage.get("avatars", key))!.bytes;
    // B hands out its own address for the avatar A stored, and it serves the same bytes.
    const fromB = (await trpc(b, "profile.get", cookie)).avatarUrl as string;
    expect(fromB.split("?")[0]).toBe(avatarUrl!.split("?")[0]);
    expect((await bytesAt(fromB, b.url)).equals(stored)).toBe(true);

    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const { logoUrl } = await upload(a, "/api/uploads/school-logo", await sessionCookie(h, staff.id));
    expect(logoUrl).toMatch(/^\/files\/school_logos\//);
    expect((await bytesAt(logoUrl!, b.url)).equals((await h.deps.storage.get("school_logos", logoUrl!.replace("/files/school_logos/", "")))!.bytes)).toBe(true);
  });

  it(`${RATE_LIMITS.login.max} logins from one address spread over both servers are limited as on one: the next is 429 on either`, async () => {
    const client = clientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.login.max; i++) statuses.push((await login(i % 2 ? b : a, uniqueEmail("limite"), "senha-errada", client)).status);
    expect(statuses).toEqual(Array(RATE_LIMITS.login.max).fill(401));
    expect((await login(a, uniqueEmail("limite"), "senha-errada", client)).status).toBe(429);
    expect((await login(b, uniqueEmail("limite"), "senha-errada", client)).status).toBe(429);
    // Another address is not affected.
    expect((await login(b, uniqueEmail("limite"), "senha-errada", clientAddress())).status).toBe(401);
  });

  it("a profile update made on one server reaches a tab open on the other", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const tab = openProfileStream(b.url, cookie);
    await tab.opened;
    // Give B's LISTEN a moment to be registered before the change.
    await new Promise((r) => setTimeout(r, 300));
    await trpc(a, "profile.update", cookie, { phone: "(11) 98765-4321", publicSchoolPaidActivity: true });
    expect(await tab.waitFor((line) => line.includes(user.email))).toContain(user.email);

    const { avatarUrl } = await upload(a, "/api/uploads/avatar", cookie);
    const path = new URL(avatarUrl!).pathname;
    expect(await tab.waitFor((line) => line.includes(path))).toContain(path);
    tab.close();
  });
});

it.skipIf(ready)("the several-servers test needs real PostgreSQL and Redis at 127.0.0.1:6379", () => {
  expect(ready).toBe(false);
});
