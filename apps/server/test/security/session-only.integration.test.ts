import { schema } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiToken } from "../support/factories/apiTokens";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

/**
 * Issue 15, point 13: a personal API token cannot delete its owner's account or manage tokens,
 * and a deletion through the browser asks for the current password again, with wrong attempts
 * counted by the login lockout. Real requests to a listening server.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

type Answer = { status: number; code?: string; toast?: { title: string; description?: string } };

async function post(path: string, input: unknown, auth: { token?: string; cookie?: string }): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  else headers.origin = TEST_ORIGIN;
  if (auth.cookie) headers.cookie = auth.cookie;
  const res = await fetch(`${server.url}/trpc/${path}`, { method: "POST", headers, body: JSON.stringify({ json: input }) });
  const body = (await res.json()) as { error?: { json: { data: { code: string; toast: Answer["toast"] } } } };
  return { status: res.status, code: body.error?.json.data.code, toast: body.error?.json.data.toast };
}

const exists = async (userId: string) => (await h.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId))).length === 1;
/** Portuguese: accented letters or common Portuguese words, never tRPC's English default. */
const portuguese = (t?: { title: string; description?: string }) => `${t?.title} ${t?.description ?? ""}`;

describe("procedures that need a browser session", () => {
  it("a token cannot delete its owner's account, even with the right password", async () => {
    const user = await createUser(h);
    const { token } = await createApiToken(h, user.id);
    const res = await post("privacy.deleteAccount", { password: user.password }, { token });
    expect(res.status).toBe(403);
    expect(res.code).toBe("FORBIDDEN");
    expect(portuguese(res.toast)).toMatch(/sessão|site|token/i);
    expect(await exists(user.id)).toBe(true);
  });

  it("a token can neither create nor revoke tokens", async () => {
    const user = await createUser(h);
    const { token } = await createApiToken(h, user.id);
    const other = await createApiToken(h, user.id, { name: "Outro script" });
    const revoke = await post("apiTokens.revoke", { id: other.id }, { token });
    expect(revoke.status).toBe(403);
    expect(revoke.code).toBe("FORBIDDEN");
    const [row] = await h.db.select({ revokedAt: schema.apiTokens.revokedAt }).from(schema.apiTokens).where(eq(schema.apiTokens.id, other.id));
    expect(row!.revokedAt).toBeNull();
    expect((await post("apiTokens.create", { name: "clone" }, { token })).status).toBe(403);
  });

  it("the browser session deletes only with the current password; wrong ones are refused in Portuguese and count against the login lockout", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);

    const missing = await post("privacy.deleteAccount", {}, { cookie });
    expect(missing.status).toBe(400);
    const wrong = await post("privacy.deleteAccount", { password: "nao-e-a-senha" }, { cookie });
    expect(wrong.status).toBe(403);
    expect(wrong.code).toBe("FORBIDDEN");
    expect(portuguese(wrong.toast)).toMatch(/senha/i);
    expect(await exists(user.id)).toBe(true);

    // A burst of wrong guesses in parallel: each takes its own place in the count, so exactly the
    // guesses left before the block are answered "wrong password" and the rest "blocked".
    const BURST = 12;
    const burst = await Promise.all(Array.from({ length: BURST }, (_, i) => post("privacy.deleteAccount", { password: `chute-${i}` }, { cookie })));
    const wrongAnswers = burst.filter((r) => r.status === 403).length;
    expect(wrongAnswers, JSON.stringify(burst)).toBe(LIMITS.loginMaxFailures - 2);
    expect(burst.filter((r) => r.status === 429).length).toBe(BURST - wrongAnswers);
    expect(await exists(user.id)).toBe(true);
    const [throttle] = await h.db.select().from(schema.loginThrottles).where(eq(schema.loginThrottles.email, user.email));
    expect(throttle!.failedCount).toBe(1 + BURST);
    expect(throttle!.blockedUntil!.getTime()).toBeGreaterThan(h.clock.now().getTime());

    // While blocked, even the right password neither deletes nor signs in.
    const blocked = await post("privacy.deleteAccount", { password: user.password }, { cookie });
    expect(blocked.status).toBe(429);
    expect(await exists(user.id)).toBe(true);
    expect((await post("auth.login", { email: user.email, password: user.password }, {})).status).toBe(429);

    // After the block, the right password deletes the account.
    h.clock.advance(LIMITS.loginBlockMinutes * 60_000 + 1000);
    const done = await post("privacy.deleteAccount", { password: user.password }, { cookie });
    expect(done.status).toBe(200);
    expect(await exists(user.id)).toBe(false);
  });
});
