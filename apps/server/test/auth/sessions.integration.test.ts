import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCookieJar } from "../../src/auth/cookie";
import { grantAdmin } from "../../src/auth/roles";
import { createSession, loadSessionUser, validateSessionToken } from "../../src/auth/session";
import { hashSecret } from "../../src/auth/tokens";
import { createContextInner } from "../../src/trpc/init";
import { createCaller } from "../../src/trpc/caller";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const DAY = 24 * 60 * 60 * 1000;

describe("sessions", () => {
  it("stores only the SHA-256 of the token", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    const rows = await h.db.select({ id: schema.sessions.id }).from(schema.sessions).where(eq(schema.sessions.userId, user.id));
    expect(rows.map((r) => r.id)).toEqual([hashSecret(token)]);
  });

  it("slides the 30-day expiry with use, and ends at the absolute limit", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    for (let i = 0; i < 4; i++) {
      h.clock.advance(20 * DAY);
      expect(await validateSessionToken(h.db, h.clock, token)).not.toBeNull();
    }
    h.clock.advance(11 * DAY); // 91 days after creation
    expect(await validateSessionToken(h.db, h.clock, token)).toBeNull();
  });

  it("expires after 30 days without use", async () => {
    const user = await createUser(h);
    const { token } = await createSession(h.db, h.clock, user.id);
    h.clock.advance(30 * DAY + 1);
    expect(await validateSessionToken(h.db, h.clock, token)).toBeNull();
  });

  it("logs out: deletes the session and clears the cookie", async () => {
    const user = await createUser(h);
    const { token, session } = await createSession(h.db, h.clock, user.id);
    const cookies = memoryCookieJar({ elo_session: token });
    const caller = createCaller(createContextInner({ deps: h.deps, user: await loadSessionUser(h.db, user.id), session, cookies }));
    await caller.auth.logout();
    expect(cookies.values.elo_session).toBeUndefined();
    expect(await validateSessionToken(h.db, h.clock, token)).toBeNull();
  });

  it("gives no roles by default; admin:create grants admin to an existing account only", async () => {
    const user = await createUser(h);
    expect((await loadSessionUser(h.db, user.id))!).toMatchObject({ roles: [], isAdmin: false });
    expect(await grantAdmin(h.db, ` ${user.email.toUpperCase()} `)).toBe(true);
    expect(await grantAdmin(h.db, user.email)).toBe(true);
    expect((await loadSessionUser(h.db, user.id))!).toMatchObject({ roles: ["admin"], isAdmin: true });
    expect(await grantAdmin(h.db, "ninguem@teste.com.br")).toBe(false);
  });

  it("answers auth.me without any password hash", async () => {
    const user = await createUser(h);
    const me = await (await h.caller(user.id)).auth.me();
    expect(me).toMatchObject({ id: user.id, email: user.email, profileType: "parent", isAdmin: false });
    expect(JSON.stringify(me)).not.toMatch(/argon2|password/i);
    expect(await (await h.caller(null)).auth.me()).toBeNull();
  });
});
