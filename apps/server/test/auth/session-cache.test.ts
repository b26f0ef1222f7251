import type { DatabaseHandle } from "@elo/db";
import { describe, expect, it } from "vitest";
import { SESSION_CACHE_MARKS_MAX, SESSION_CACHE_MAX_AGE_MS, SessionCache } from "../../src/auth/session-cache";

const logger = { warn: () => {} } as never;
const user = (id: string) => ({ id, email: `${id}@teste.com.br`, profileType: "parent" as const, roles: [], isAdmin: false, emailConfirmed: true });
const entry = (userId: string) => ({ userId, expiresAt: 2e12, createdAt: 1e12, user: user(userId) });

/** A handle whose notifications and reconnections the test sends by hand. */
function fakeHandle(fail = false) {
  const listeners: { onPayload: (p: string) => void; onListen?: () => void }[] = [];
  const handle = {
    listen: async (_channel: string, onPayload: (p: string) => void, onListen?: () => void) => {
      if (fail) throw new Error("no LISTEN");
      listeners.push({ onPayload, onListen });
      onListen?.();
      return async () => {};
    },
  } as unknown as DatabaseHandle;
  return { handle, notify: (p: string) => listeners.forEach((l) => l.onPayload(p)), reconnect: () => listeners.forEach((l) => l.onListen?.()) };
}

async function listening(now = () => 0, max?: number) {
  const cache = new SessionCache(now, max);
  const fake = fakeHandle();
  await cache.listen(fake.handle, logger);
  return { cache, ...fake };
}

describe("SessionCache (decision 220)", () => {
  it("keeps nothing until LISTEN is in place, nor when it failed", async () => {
    const idle = new SessionCache(() => 0);
    idle.store(idle.version, "s1", entry("u1"));
    expect(idle.get("s1")).toBeUndefined();
    const failed = new SessionCache(() => 0);
    await failed.listen(fakeHandle(true).handle, logger);
    failed.store(failed.version, "s1", entry("u1"));
    expect(failed.get("s1")).toBeUndefined();
  });

  it("does not keep a lookup that was in flight across any notification", async () => {
    const { cache, notify } = await listening();
    const before = cache.version;
    notify("someone-else");
    cache.store(before, "s1", entry("u1"));
    expect(cache.get("s1")).toBeUndefined();
    cache.store(cache.version, "s1", entry("u1"));
    expect(cache.get("s1")?.userId).toBe("u1");
  });

  it("once the database was read without a session, keeps neither its entry nor a lookup in flight from before", async () => {
    const { cache } = await listening();
    cache.store(cache.version, "s1", entry("u1"));
    const inFlight = cache.version;
    // Another request read the database after the sign-out elsewhere, before its notification.
    cache.forget("s1");
    expect(cache.get("s1")).toBeUndefined();
    cache.store(inFlight, "s1", entry("u1"));
    expect(cache.get("s1")).toBeUndefined();
  });

  it("a session read gone spoils no other session's lookup in flight, up to a bounded number of such sessions", async () => {
    const { cache } = await listening();
    const inFlight = cache.version;
    // A stranger's unknown cookies, each read gone while s1's lookup was in flight.
    for (let i = 0; i < SESSION_CACHE_MARKS_MAX; i++) cache.forget(`unknown-${i}`);
    cache.store(inFlight, "s1", entry("u1"));
    expect(cache.get("s1")?.userId).toBe("u1");
    cache.store(inFlight, "unknown-7", entry("u7"));
    expect(cache.get("unknown-7")).toBeUndefined();
    // One more than it remembers: every lookup from before is refused, and the memory starts again.
    const next = cache.version;
    cache.forget("one-too-many");
    cache.store(next, "s2", entry("u2"));
    expect(cache.get("s2")).toBeUndefined();
    cache.store(cache.version, "s2", entry("u2"));
    expect(cache.get("s2")?.userId).toBe("u2");
  });

  it("drops a user's sessions (and only theirs) on a notification; '*' and a reconnection drop all", async () => {
    const { cache, notify, reconnect } = await listening();
    for (const [s, u] of [["s1", "u1"], ["s2", "u1"], ["s3", "u2"]] as const) cache.store(cache.version, s, entry(u));
    notify("u1");
    expect([cache.get("s1"), cache.get("s2"), cache.get("s3")?.userId]).toEqual([undefined, undefined, "u2"]);
    notify("*");
    expect(cache.size).toBe(0);
    cache.store(cache.version, "s3", entry("u2"));
    reconnect();
    expect(cache.size).toBe(0);
  });

  it("a user's own change drops their sessions without spoiling others' lookups in flight", async () => {
    const { cache } = await listening();
    cache.store(cache.version, "s1", entry("u1"));
    const before = cache.version;
    cache.dropUser("u1");
    expect(cache.get("s1")).toBeUndefined();
    cache.store(before, "s2", entry("u2"));
    expect(cache.get("s2")?.userId).toBe("u2");
    // Their own lookup in flight from before the change (it may have read the old row) is not kept,
    // though the change's notification has not arrived: their next request reads again.
    cache.store(before, "s1", entry("u1"));
    expect(cache.get("s1")).toBeUndefined();
    cache.store(before, "s3", entry("u1"));
    expect(cache.get("s3")).toBeUndefined();
    cache.store(cache.version, "s1", entry("u1"));
    expect(cache.get("s1")?.userId).toBe("u1");
  });

  it("forgets an entry after its maximum age, and the oldest when full", async () => {
    let now = 0;
    const { cache } = await listening(() => now, 2);
    cache.store(cache.version, "s1", entry("u1"));
    now = SESSION_CACHE_MAX_AGE_MS - 1;
    expect(cache.get("s1")).toBeDefined();
    now = SESSION_CACHE_MAX_AGE_MS;
    expect(cache.get("s1")).toBeUndefined();
    for (const s of ["a", "b", "c"]) cache.store(cache.version, s, entry(`u-${s}`));
    expect([cache.get("a"), cache.size]).toEqual([undefined, 2]);
  });
});
