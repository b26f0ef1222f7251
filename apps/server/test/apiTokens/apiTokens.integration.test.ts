import { schema } from "@elo/db";
import { accessMessages, API_TOKEN_MAX_ACTIVE, authMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSession, revokeUserApiTokens } from "../../src/auth/session";
import { hashSecret } from "../../src/auth/tokens";
import { createApiToken } from "../support/factories/apiTokens";
import { latestResetToken } from "../support/factories/auth";
import { createAdmin, createUser } from "../support/factories/users";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

type TrpcBody = { result?: { data: { json: unknown } }; error?: { json: { message: string; data: { code: string; httpStatus: number; toast: { title: string; description?: string } } } } };

async function call(path: string, opts: { token?: string; cookie?: string; origin?: string; input?: unknown; mutation?: boolean; authorization?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  const input = opts.input === undefined ? undefined : JSON.stringify({ json: opts.input });
  const res = opts.mutation
    ? await fetch(`${server.url}/trpc/${path}`, { method: "POST", headers, body: input ?? "{}" })
    : await fetch(`${server.url}/trpc/${path}${input ? `?input=${encodeURIComponent(input)}` : ""}`, { headers });
  return { status: res.status, body: (await res.json()) as TrpcBody };
}

async function sessionCookie(userId: string) {
  const { token } = await createSession(h.db, h.clock, userId);
  return `elo_session=${token}`;
}

describe("apiTokens procedures", () => {
  it("creates a token shown once, stores only its hash, lists it without the secret", async () => {
    const user = await createUser(h);
    const caller = await h.caller(user.id);
    const created = await caller.apiTokens.create({ name: "  Sistema da secretaria  ", expiresInDays: 90 });
    expect(created.token).toMatch(/^elo_[a-z2-7]{40}$/);
    expect(created.name).toBe("Sistema da secretaria");
    expect(created.expiresAt!.getTime() - h.clock.now().getTime()).toBe(90 * 24 * 3600 * 1000);
    const [row] = await h.db.select().from(schema.apiTokens).where(eq(schema.apiTokens.id, created.id));
    expect(row!.tokenHash).toBe(hashSecret(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const list = await caller.apiTokens.list();
    expect(list).toEqual([expect.objectContaining({ id: created.id, name: "Sistema da secretaria", status: "active", lastUsedAt: null, current: false })]);
    expect(JSON.stringify(list)).not.toContain(created.token);
    expect(JSON.stringify(list)).not.toContain(row!.tokenHash);
  });

  it("validates the name with the catalogue's messages", async () => {
    const caller = await h.caller((await createUser(h)).id);
    await expect(caller.apiTokens.create({ name: "   " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.apiTokens.create({ name: "x".repeat(101) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.apiTokens.create({ name: "ok", expiresInDays: 7 } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses anonymous callers", async () => {
    const anon = await h.caller(null);
    await expect(anon.apiTokens.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anon.apiTokens.create({ name: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("never shows or revokes a stranger's token", async () => {
    const owner = await createUser(h);
    const stranger = await createUser(h);
    const { id } = await createApiToken(h, owner.id);
    const strangerCaller = await h.caller(stranger.id);
    expect(await strangerCaller.apiTokens.list()).toEqual([]);
    await expect(strangerCaller.apiTokens.revoke({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const [row] = await h.db.select({ revokedAt: schema.apiTokens.revokedAt }).from(schema.apiTokens).where(eq(schema.apiTokens.id, id));
    expect(row!.revokedAt).toBeNull();
  });

  it("revokes, and reports revoked and expired tokens in the list", async () => {
    const user = await createUser(h);
    const caller = await h.caller(user.id);
    const a = await createApiToken(h, user.id, { name: "a" });
    await createApiToken(h, user.id, { name: "b", expiresAt: new Date(h.clock.now().getTime() - 1000) });
    await caller.apiTokens.revoke({ id: a.id });
    await caller.apiTokens.revoke({ id: a.id });
    const byName = Object.fromEntries((await caller.apiTokens.list()).map((t) => [t.name, t.status]));
    expect(byName).toEqual({ a: "revoked", b: "expired" });
  });

  it(`allows at most ${API_TOKEN_MAX_ACTIVE} active tokens`, async () => {
    const user = await createUser(h);
    for (let i = 0; i < API_TOKEN_MAX_ACTIVE; i++) await createApiToken(h, user.id, { name: `t${i}` });
    const caller = await h.caller(user.id);
    await expect(caller.apiTokens.create({ name: "one more" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const [first] = await caller.apiTokens.list();
    await caller.apiTokens.revoke({ id: first!.id });
    await expect(caller.apiTokens.create({ name: "one more" })).resolves.toMatchObject({ name: "one more" });
  });
});

describe("bearer authentication over HTTP", () => {
  it("acts as the token's user with that user's rights", async () => {
    const parent = await createUser(h);
    const admin = await createAdmin(h);
    const p = await createApiToken(h, parent.id);
    const a = await createApiToken(h, admin.id);
    const me = await call("auth.me", { token: p.token });
    expect(me.status).toBe(200);
    expect(me.body.result!.data.json).toMatchObject({ id: parent.id, email: parent.email, profileType: "parent", isAdmin: false });
    const adminMe = await call("auth.me", { token: a.token });
    expect(adminMe.body.result!.data.json).toMatchObject({ id: admin.id, isAdmin: true });
  });

  it("exempts cookie-less bearer mutations from the Origin check, but not cookie requests", async () => {
    const user = await createUser(h);
    const { token } = await createApiToken(h, user.id);
    const input = { subject: "Outro", name: "Script da escola", email: user.email, message: "Enviado por um script" };
    const ok = await call("contact.send", { token, mutation: true, input });
    expect(ok.status).toBe(200);
    const cookie = await sessionCookie(user.id);
    const withCookie = await call("contact.send", { token, cookie, mutation: true, input });
    expect(withCookie.status).toBe(403);
    const withCookieAndOrigin = await call("contact.send", { token, cookie, origin: TEST_ORIGIN, mutation: true, input });
    expect(withCookieAndOrigin.status).toBe(200);
  });

  it("refuses malformed, unknown, revoked and expired tokens with UNAUTHORIZED and the catalogue message", async () => {
    const user = await createUser(h);
    const revoked = await createApiToken(h, user.id);
    await (await h.caller(user.id)).apiTokens.revoke({ id: revoked.id });
    const expired = await createApiToken(h, user.id, { expiresAt: new Date(h.clock.now().getTime() + 60_000) });
    expect((await call("auth.me", { token: expired.token })).status).toBe(200);
    h.clock.advance(60_000);
    const unknown = `elo_${"a".repeat(40)}`;
    for (const authorization of [`Bearer ${revoked.token}`, `Bearer ${expired.token}`, `Bearer ${unknown}`, "Bearer not-a-token", "Bearer ", `Bearer ${"x".repeat(5000)}`]) {
      const res = await call("auth.me", { authorization });
      expect(res.status, authorization.slice(0, 30)).toBe(401);
      expect(res.body.error!.json.data.code).toBe("UNAUTHORIZED");
      expect(res.body.error!.json.data.toast.title).toBe(authMessages.invalidToken);
    }
  });

  it("a bad bearer token is refused even next to a valid session cookie", async () => {
    const user = await createUser(h);
    const res = await call("auth.me", { token: "elo_wrong", cookie: await sessionCookie(user.id) });
    expect(res.status).toBe(401);
  });

  it("a token may list tokens, but neither create nor revoke them (not even itself)", async () => {
    const user = await createUser(h);
    const { token, id } = await createApiToken(h, user.id);
    const list = await call("apiTokens.list", { token });
    expect(list.body.result!.data.json).toEqual([expect.objectContaining({ id, current: true })]);
    for (const [path, input] of [["apiTokens.create", { name: "clone" }], ["apiTokens.revoke", { id }]] as const) {
      const refused = await call(path, { token, mutation: true, input });
      expect(refused.status).toBe(403);
      expect(refused.body.error!.json.data.code).toBe("FORBIDDEN");
      expect(refused.body.error!.json.data.toast.title).toBe(accessMessages.sessionRequiredTitle);
    }
  });

  it("records the last use at most once a minute", async () => {
    const user = await createUser(h);
    const { token, id } = await createApiToken(h, user.id);
    const lastUsed = async () => (await h.db.select({ at: schema.apiTokens.lastUsedAt }).from(schema.apiTokens).where(eq(schema.apiTokens.id, id)))[0]!.at;
    const t0 = h.clock.now().getTime();
    await call("auth.me", { token });
    expect((await lastUsed())!.getTime()).toBe(t0);
    h.clock.advance(30_000);
    await call("auth.me", { token });
    expect((await lastUsed())!.getTime()).toBe(t0);
    h.clock.advance(30_000);
    await call("auth.me", { token });
    expect((await lastUsed())!.getTime()).toBe(t0 + 60_000);
  });

  it("revokeUserApiTokens (password reset, account deletion) stops every token of the user", async () => {
    const user = await createUser(h);
    const other = await createUser(h);
    const t1 = await createApiToken(h, user.id);
    const t2 = await createApiToken(h, user.id);
    const keep = await createApiToken(h, other.id);
    await revokeUserApiTokens(h.db, user.id, h.clock.now());
    expect((await call("auth.me", { token: t1.token })).status).toBe(401);
    expect((await call("auth.me", { token: t2.token })).status).toBe(401);
    expect((await call("auth.me", { token: keep.token })).status).toBe(200);
  });

  it("a password reset revokes every token of the user", async () => {
    const user = await createUser(h);
    const t = await createApiToken(h, user.id);
    const anon = await h.caller(null);
    await anon.auth.requestPasswordReset({ email: user.email });
    const resetToken = (await latestResetToken(h, user.email))!;
    await anon.auth.resetPassword({ token: resetToken, password: "Nova-Senha-Segura-77" });
    expect((await call("auth.me", { token: t.token })).status).toBe(401);
  });

  it("tokens disappear with the account", async () => {
    const user = await createUser(h);
    const { token } = await createApiToken(h, user.id);
    await h.db.delete(schema.users).where(eq(schema.users.id, user.id));
    expect((await call("auth.me", { token })).status).toBe(401);
  });
});

describe("per-token rate limit", () => {
  it("answers TOO_MANY_REQUESTS past the limit, per token, without touching cookie requests", async () => {
    const limited = await h.startServer({ RATE_LIMIT: "1", API_RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const user = await createUser(h);
      const a = await createApiToken(h, user.id);
      const b = await createApiToken(h, user.id);
      const get = (headers: Record<string, string>) => fetch(`${limited.url}/trpc/auth.me`, { headers });
      for (let i = 0; i < 3; i++) expect((await get({ authorization: `Bearer ${a.token}` })).status).toBe(200);
      const over = await get({ authorization: `Bearer ${a.token}` });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await over.json()) as TrpcBody;
      expect(body.error!.json.data.code).toBe("TOO_MANY_REQUESTS");
      expect((await get({ authorization: `Bearer ${b.token}` })).status).toBe(200);
      const cookie = await sessionCookie(user.id);
      for (let i = 0; i < 5; i++) expect((await get({ cookie })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
