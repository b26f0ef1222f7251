import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCookieJar } from "../../src/auth/cookie";
import { recordFailedLogin, recordSuccessfulLogin, reserveLogin } from "../../src/auth/login-store";
import { newSession } from "../../src/auth/session";
import { createAdmin, createUser, uniqueEmail } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";
import { countStatements } from "../support/statements";
import { onRealPostgres } from "../support/test-db";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(async () => {
  await h.close();
});

const MIN = 60_000;

/** The error of a failing login: its code and toast. */
async function failLogin(email: string, password = "senha-errada-123") {
  const caller = await h.caller(null);
  try {
    await caller.auth.login({ email, password });
  } catch (e) {
    const err = e as { code: string; toast: { title: string; description?: string } };
    return { code: err.code, toast: err.toast };
  }
  throw new Error("login should have failed");
}

describe("auth.login", () => {
  it("signs in, sets the session cookie and says where to land", async () => {
    const user = await createUser(h, { profileType: "institution" });
    const cookies = memoryCookieJar();
    const caller = await h.caller(null, { cookies });
    const result = await caller.auth.login({ email: ` ${user.email.toUpperCase()} `, password: user.password });
    expect(result).toEqual({ isAdmin: false, profileType: "institution" });
    expect(cookies.values.elo_session).toMatch(/^[a-z0-9]{30,}$/);
    const admin = await createAdmin(h);
    expect(await (await h.caller(null)).auth.login({ email: admin.email, password: admin.password })).toMatchObject({ isAdmin: true });
  });

  it("signs in with two statements: one read before the password check, one write after", async () => {
    const user = await createUser(h, { profileType: "parent" });
    const caller = await h.caller(null);
    const statements = countStatements(h.db);
    try {
      expect(await caller.auth.login({ email: user.email, password: user.password })).toEqual({ isAdmin: false, profileType: "parent" });
      expect(statements.count()).toBe(2);
    } finally {
      statements.restore();
    }
    const attempts = await h.db.select().from(schema.loginAttempts).where(eq(schema.loginAttempts.email, user.email));
    expect(attempts.map((a) => a.success)).toEqual([true]);
    expect(await h.db.select().from(schema.sessions).where(eq(schema.sessions.userId, user.id))).toHaveLength(1);
  });

  it("counts down the attempts, blocks for 15 minutes at the 5th failure, then lets the right password in", async () => {
    const user = await createUser(h);
    expect((await failLogin(user.email)).toast).toEqual({ title: "Email ou senha incorretos", description: "Você tem mais 4 tentativa(s) antes do bloqueio temporário." });
    expect((await failLogin(user.email)).toast.description).toBe("Você tem mais 3 tentativa(s) antes do bloqueio temporário.");
    expect((await failLogin(user.email)).toast.description).toBe("Você tem mais 2 tentativa(s) antes do bloqueio temporário.");
    expect((await failLogin(user.email)).toast.description).toBe("Próxima tentativa falhada bloqueará sua conta por 15 minutos.");
    const fifth = await failLogin(user.email);
    expect(fifth).toEqual({ code: "TOO_MANY_REQUESTS", toast: { title: "Conta temporariamente bloqueada", description: "Muitas tentativas falhadas. Tente novamente em 15 minutos." } });

    // Even the right password is refused while blocked; minutes are rounded up.
    h.clock.advance(10 * MIN + 1000);
    expect((await failLogin(user.email, user.password)).toast.description).toBe("Muitas tentativas falhadas. Tente novamente em 5 minutos.");
    h.clock.advance(4 * MIN);
    expect((await failLogin(user.email, user.password)).toast.description).toBe("Muitas tentativas falhadas. Tente novamente em 1 minutos.");
    h.clock.advance(MIN);
    expect(await (await h.caller(null)).auth.login({ email: user.email, password: user.password })).toMatchObject({ profileType: "parent" });
    // A success clears the counter.
    expect((await failLogin(user.email)).toast.description).toBe("Você tem mais 4 tentativa(s) antes do bloqueio temporário.");
  });

  it("on success forgets the finished checks but keeps counting those still running (decision 105)", async () => {
    const user = await createUser(h);
    const now = h.clock.now();
    // Three attempts reserved together; the third has the right password and finishes first.
    const [first, second, right] = [await reserveLogin(h.db, user.email, now), await reserveLogin(h.db, user.email, now), await reserveLogin(h.db, user.email, now)];
    expect([first.attempt, second.attempt, right.attempt]).toEqual([1, 2, 3]);
    await recordSuccessfulLogin(h.db, user.email, newSession(h.clock, user.id).session, null, now);
    await recordFailedLogin(h.db, user.email, null, now);
    await recordFailedLogin(h.db, user.email, null, now);
    // The two wrong ones still count: the next failure is the window's third.
    expect((await failLogin(user.email)).toast.description).toBe("Você tem mais 2 tentativa(s) antes do bloqueio temporário.");
  });

  it("starts a fresh count once the 15-minute window has passed", async () => {
    const user = await createUser(h);
    for (let i = 0; i < 4; i++) await failLogin(user.email);
    h.clock.advance(15 * MIN + 1);
    expect((await failLogin(user.email)).toast.description).toBe("Você tem mais 4 tentativa(s) antes do bloqueio temporário.");
  });

  it("answers an unknown e-mail exactly like a wrong password, and locks it the same way", async () => {
    const known = await createUser(h);
    const unknown = uniqueEmail("ninguem");
    expect(await failLogin(unknown)).toEqual(await failLogin(known.email));
    for (let i = 0; i < 3; i++) await failLogin(unknown);
    expect((await failLogin(unknown)).toast.title).toBe("Conta temporariamente bloqueada");
  });

  it("spends about the same time on an unknown e-mail as on a wrong password", async () => {
    const time = async (email: string) => {
      const start = performance.now();
      await failLogin(email);
      return performance.now() - start;
    };
    await time(uniqueEmail("aquecimento"));
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    // Interleaved (the machine is shared), compared by median; the password check dominates both.
    for (let i = 0; i < 4; i++) {
      const other = await createUser(h);
      knownTimes.push(await time(other.email));
      unknownTimes.push(await time(uniqueEmail("x")));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const knownMs = median(knownTimes);
    const unknownMs = median(unknownTimes);
    expect(unknownMs).toBeGreaterThan(knownMs * 0.5);
  });

  it("records every attempt with the user agent", async () => {
    const user = await createUser(h);
    await failLogin(user.email);
    await (await h.caller(null, { userAgent: "Navegador de Teste/1.0" })).auth.login({ email: user.email, password: user.password });
    const rows = await h.db.select().from(schema.loginAttempts).where(eq(schema.loginAttempts.email, user.email));
    expect(rows.map((r) => r.success).sort()).toEqual([false, true]);
    expect(rows.find((r) => r.success)!.userAgent).toBe("Navegador de Teste/1.0");
  });

  it("rejects bad input with the spec's messages", async () => {
    const caller = await h.caller(null);
    await expect(caller.auth.login({ email: "nao-e-email", password: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("Email inválido") });
    await expect(caller.auth.login({ email: "a@b.com.br", password: "" })).rejects.toMatchObject({ message: expect.stringContaining("Senha é obrigatória") });
  });

  it.skipIf(!onRealPostgres())("counts all of 10 parallel wrong attempts (real PostgreSQL)", async () => {
    const user = await createUser(h);
    const results = await Promise.all(Array.from({ length: 10 }, () => failLogin(user.email)));
    const [row] = await h.db.select().from(schema.loginThrottles).where(eq(schema.loginThrottles.email, user.email));
    expect(row!.failedCount).toBe(10);
    expect(row!.blockedUntil!.getTime()).toBe(h.clock.now().getTime() + 15 * MIN);
    // Exactly the 5th to 10th failures answer "blocked".
    expect(results.filter((r) => r.code === "TOO_MANY_REQUESTS")).toHaveLength(6);
    expect((await failLogin(user.email, user.password)).toast.title).toBe("Conta temporariamente bloqueada");
  });
});
