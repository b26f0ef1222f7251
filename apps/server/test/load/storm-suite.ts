import { marketplaceMessages as m } from "@elo/shared";
import { afterAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/http/rate-limit";
import { spawnServer, withSpawnedServer, type ChildServer, type SpawnedWorld } from "../support/child-server";
import type { Harness } from "../support/harness";
import { onRealPostgres } from "../support/test-db";
import { byStatus, ledger, mutate, rssMb, seedClaimStorm, seedLogins} from "./storm";

export interface StormSize {
  claimClients: number;
  slots: number;
  logins: number;
  /** Wall-clock bounds of each storm, and of the server's resident-memory growth across both. */
  claimMs: number;
  loginMs: number;
  rssGrowthMb: number;
}

/**
 * A claim storm and a login storm against ONE spawned built server (node dist-style bundle,
 * production entry point) on real PostgreSQL over loopback.
 *
 * Every client comes from 127.0.0.1, so with the per-IP limits on (rate-limit.ts) all but the
 * first 30 claims and 20 logins of a minute would be 429s and the storm would measure the limiter,
 * not the claim transaction or argon2. The main server therefore runs with RATE_LIMIT=0 (the knob
 * production keeps on). A second server with the limits ON then takes the same storm shape, and
 * the test checks that exactly the limiter's quota does real work and the rest are 429s carrying
 * Retry-After: a refusal, never an oversell or a 5xx.
 */
export function defineStormSuite(label: string, size: StormSize) {
  describe.skipIf(!onRealPostgres())(`${label} (real PostgreSQL, spawned built server)`, () => {
    let h: Harness;
    let bundle: SpawnedWorld["bundle"];
    let server: ChildServer;
    const figures: Record<string, unknown> = { clients: size.claimClients, slots: size.slots, logins: size.logins };

    withSpawnedServer((w) => ({ h, bundle, server } = w));
    afterAll(() => console.log(`[${label}] ${JSON.stringify(figures)}`));

    it(`${size.claimClients} parents claim ${size.slots} slots at once, ${size.logins} sign in at once: no oversell, no 5xx, memory bounded`, async () => {
      const storm = await seedClaimStorm(h, size.claimClients, size.slots);
      const users = await seedLogins(h, size.logins);
      // Warm-up so "before" is the steady state of a started server, not its first lazy loads.
      for (const u of users.slice(0, 2)) expect((await mutate(server.url, "auth.login", { email: u.email, password: u.password })).status).toBe(200);
      const rssBefore = rssMb(server.proc.pid!);

      let t0 = Date.now();
      const claims = await Promise.all(storm.cookies.map((cookie) => mutate(server.url, "claim.create", { discountId: storm.discountId }, cookie)));
      const claimMs = Date.now() - t0;
      const claimCounts = byStatus(claims);
      const rssAfterClaims = rssMb(server.proc.pid!);

      t0 = Date.now();
      const logins = await Promise.all(users.map((u) => mutate(server.url, "auth.login", { email: u.email, password: u.password })));
      const loginMs = Date.now() - t0;
      const loginCounts = byStatus(logins);
      const rssAfter = rssMb(server.proc.pid!);
      Object.assign(figures, { claimCounts, claimMs, loginCounts, loginMs, rssBefore, rssAfterClaims, rssAfter });

      // Exactly `slots` winners; every other parent got the spec's "no longer available" refusal.
      expect(claimCounts).toEqual({ 200: size.slots, 409: size.claimClients - size.slots });
      for (const c of claims.filter((c) => c.status === 409)) expect(c.body).toContain(m.unavailableTitle);
      const codes = claims.filter((c) => c.status === 200).map((c) => JSON.parse(c.body).result.data.json.voucherCode as string);
      expect(new Set(codes).size).toBe(size.slots);
      expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: 0, vouchers: size.slots, transactions: size.slots, claimedRows: size.slots });

      expect(loginCounts).toEqual({ 200: size.logins });
      for (const l of logins) expect(l.setCookie).toMatch(/^elo_session=[^;]+;/);
      // The sessions handed out are real: one of them reads back its own account.
      const me = await fetch(`${server.url}/trpc/auth.me`, { headers: { cookie: logins.at(-1)!.setCookie!.split(";")[0]! } });
      expect(((await me.json()) as { result: { data: { json: { email: string } } } }).result.data.json.email).toBe(users.at(-1)!.email);

      expect(claimMs).toBeLessThan(size.claimMs);
      expect(loginMs).toBeLessThan(size.loginMs);
      expect(rssAfter - rssBefore).toBeLessThan(size.rssGrowthMb);
      expect(server.proc.exitCode).toBeNull();
    }, 300_000);

    it("with the per-IP limits on, the same storms from one IP do exactly the quota of real work and refuse the rest with 429", async () => {
      const limited = await spawnServer(bundle.bundle, (h.dbHandle as { url: string }).url, { RATE_LIMIT: "1" });
      try {
        const storm = await seedClaimStorm(h, size.claimClients, size.slots);
        const claims = await Promise.all(storm.cookies.map((cookie) => mutate(limited.url, "claim.create", { discountId: storm.discountId }, cookie)));
        const users = await seedLogins(h, size.logins);
        const logins = await Promise.all(users.map((u) => mutate(limited.url, "auth.login", { email: u.email, password: u.password })));
        const claimCounts = byStatus(claims);
        const loginCounts = byStatus(logins);
        Object.assign(figures, { limitedClaimCounts: claimCounts, limitedLoginCounts: loginCounts });

        const claimQuota = Math.min(size.claimClients, RATE_LIMITS.claim.max);
        const winners = Math.min(size.slots, claimQuota);
        expect(claimCounts).toEqual(counts({ 200: winners, 409: claimQuota - winners, 429: size.claimClients - claimQuota }));
        for (const c of claims.filter((c) => c.status === 429)) expect(JSON.parse(c.body).error.json.data.code).toBe("TOO_MANY_REQUESTS");
        expect(await ledger(h, storm.discountId)).toEqual({ slotsLeft: size.slots - winners, vouchers: winners, transactions: winners, claimedRows: winners });

        const loginQuota = Math.min(size.logins, RATE_LIMITS.login.max);
        expect(loginCounts).toEqual(counts({ 200: loginQuota, 429: size.logins - loginQuota }));
        expect(limited.proc.exitCode).toBeNull();
      } finally {
        await limited.dispose();
      }
    }, 300_000);
  });
}

/** Drops zero entries, so the expected table reads like byStatus's. */
function counts(table: Record<number, number>): Record<number, number> {
  return Object.fromEntries(Object.entries(table).filter(([, n]) => n > 0));
}
