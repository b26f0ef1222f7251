import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, validateSessionToken } from "../../src/auth/session";
import { latestResetToken } from "../support/factories/auth";
import { createUser, uniqueEmail } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ poolMax: 12 });
});
afterAll(async () => {
  await h.close();
});

const NEW_PASSWORD = "Nova-Senha-Segura-77";
const outboxFor = (email: string) => h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, email));

async function requestToken(email: string) {
  await (await h.caller(null)).auth.requestPasswordReset({ email });
  return (await latestResetToken(h, email))!;
}

describe("password recovery", () => {
  it("e-mails a link to /reset-password for a known address and answers the same for an unknown one", async () => {
    const user = await createUser(h);
    const caller = await h.caller(null);
    const known = await caller.auth.requestPasswordReset({ email: user.email.toUpperCase() });
    const unknownEmail = uniqueEmail("ninguem");
    const unknown = await caller.auth.requestPasswordReset({ email: unknownEmail });
    expect(unknown).toEqual(known);
    // The link is made and mailed after the answer (the same time for both addresses).
    await h.deps.background.settled();
    const [mail] = await outboxFor(user.email);
    expect(mail!.kind).toBe("password-reset");
    expect(mail!.text).toMatch(new RegExp(`Redefinir senha: ${h.config.publicOrigin}/reset-password\\?token=[a-z0-9]{40}$`, "m"));
    expect(await outboxFor(unknownEmail)).toHaveLength(0);
    // Only the hash is stored.
    const token = (await latestResetToken(h, user.email))!;
    const rows = await h.db.select().from(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(token);
  });

  it("rejects an invalid e-mail with the recovery form's message", async () => {
    await expect((await h.caller(null)).auth.requestPasswordReset({ email: "abc" })).rejects.toMatchObject({ message: expect.stringContaining("E-mail inválido") });
  });

  it("resets the password once: new password works, old does not, sessions are revoked, the link is spent", async () => {
    const user = await createUser(h);
    const { token: sessionToken } = await createSession(h.db, h.clock, user.id);
    const token = await requestToken(user.email);
    const caller = await h.caller(null);
    expect(await caller.auth.checkResetToken({ token })).toEqual({ valid: true });
    expect(await caller.auth.resetPassword({ token, password: NEW_PASSWORD })).toEqual({ ok: true });

    expect(await validateSessionToken(h.db, h.clock, sessionToken)).toBeNull();
    expect(await caller.auth.login({ email: user.email, password: NEW_PASSWORD })).toMatchObject({ profileType: "parent" });
    await expect(caller.auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    expect(await caller.auth.checkResetToken({ token })).toEqual({ valid: false });
    await expect(caller.auth.resetPassword({ token, password: "Outra-Senha-Forte-88" })).rejects.toMatchObject({
      toast: { title: "Link inválido ou expirado", description: "Por favor, solicite um novo link de recuperação." },
    });
  });

  it("refuses the current password and weak passwords without spending the link", async () => {
    const user = await createUser(h);
    const token = await requestToken(user.email);
    const caller = await h.caller(null);
    await expect(caller.auth.resetPassword({ token, password: user.password })).rejects.toMatchObject({ toast: { description: "A nova senha não pode ser igual à senha anterior." } });
    await expect(caller.auth.resetPassword({ token, password: "123456" })).rejects.toMatchObject({ toast: { description: expect.stringContaining("Esta senha é muito fraca") } });
    await expect(caller.auth.resetPassword({ token, password: "abc" })).rejects.toMatchObject({ message: expect.stringContaining("A senha deve ter no mínimo 6 caracteres") });
    expect(await caller.auth.checkResetToken({ token })).toEqual({ valid: true });
  });

  it("expires the link after 1 hour", async () => {
    const user = await createUser(h);
    const token = await requestToken(user.email);
    h.clock.advance(60 * 60_000 + 1);
    const caller = await h.caller(null);
    expect(await caller.auth.checkResetToken({ token })).toEqual({ valid: false });
    await expect(caller.auth.resetPassword({ token, password: NEW_PASSWORD })).rejects.toMatchObject({ toast: { title: "Link inválido ou expirado" } });
  });

  it("replaces older links with a new request", async () => {
    const user = await createUser(h);
    const first = await requestToken(user.email);
    const second = await requestToken(user.email);
    expect(second).not.toBe(first);
    const caller = await h.caller(null);
    expect(await caller.auth.checkResetToken({ token: first })).toEqual({ valid: false });
    expect(await caller.auth.checkResetToken({ token: second })).toEqual({ valid: true });
  });

  it("lifts the login block", async () => {
    const user = await createUser(h);
    const caller = await h.caller(null);
    for (let i = 0; i < 5; i++) await caller.auth.login({ email: user.email, password: "errada-errada" }).catch(() => {});
    await expect(caller.auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({ toast: { title: "Conta temporariamente bloqueada" } });
    await caller.auth.resetPassword({ token: await requestToken(user.email), password: NEW_PASSWORD });
    expect(await caller.auth.login({ email: user.email, password: NEW_PASSWORD })).toMatchObject({ isAdmin: false });
  });

  it("lets exactly one of two parallel redemptions win", async () => {
    const user = await createUser(h);
    const token = await requestToken(user.email);
    const results = await Promise.allSettled([
      (await h.caller(null)).auth.resetPassword({ token, password: "Primeira-Senha-Forte-1" }),
      (await h.caller(null)).auth.resetPassword({ token, password: "Segunda-Senha-Forte-2" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ toast: { title: "Link inválido ou expirado" } });
  });
});
