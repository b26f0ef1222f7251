import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryCookieJar } from "../../src/auth/cookie";
import { validateSessionToken } from "../../src/auth/session";
import { signupInputFor } from "../support/factories/auth";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe("auth.signup", () => {
  it("creates the user, profile and consent record, stores an argon2id hash and signs in", async () => {
    const input = await signupInputFor(h, { marketingConsent: true });
    const cookies = memoryCookieJar();
    const result = await (await h.caller(null, { userAgent: "Firefox de Teste", cookies })).auth.signup(input);
    expect(result).toEqual({ profileType: "parent" });
    expect(JSON.stringify(result)).not.toContain("argon2");

    const [user] = await h.db.select().from(schema.users).where(eq(schema.users.email, input.email));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [profile] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, user!.id));
    expect(profile).toMatchObject({ profileType: "parent", fullName: "Maria Oliveira", stateId: input.stateId, cityId: input.cityId, neighborhoodId: input.neighborhoodId });
    expect(profile!.state).toMatch(/^[A-Z]{2}$/);
    expect(profile!.city && profile!.neighborhood).toBeTruthy();
    const [consent] = await h.db.select().from(schema.userConsents).where(eq(schema.userConsents.userId, user!.id));
    expect(consent).toMatchObject({ termsAccepted: true, privacyAccepted: true, dataProcessingConsent: true, marketingConsent: true, consentVersion: "1.0", userAgent: "Firefox de Teste" });

    const session = await validateSessionToken(h.db, h.clock, cookies.values.elo_session!);
    expect(session!.user).toMatchObject({ id: user!.id, profileType: "parent", isAdmin: false, roles: [] });
  });

  it("accepts the spec's 'school' profile type and stores it as institution", async () => {
    const input = await signupInputFor(h);
    const result = await (await h.caller(null)).auth.signup({ ...input, profileType: "school" as "institution" });
    expect(result.profileType).toBe("institution");
    const [row] = await h.db.select({ t: schema.profiles.profileType }).from(schema.profiles).innerJoin(schema.users, eq(schema.users.id, schema.profiles.userId)).where(eq(schema.users.email, input.email));
    expect(row!.t).toBe("institution");
  });

  it("refuses an e-mail already registered, whatever its case", async () => {
    const existing = await createUser(h);
    const input = await signupInputFor(h, { email: existing.email.toUpperCase() });
    await expect((await h.caller(null)).auth.signup(input)).rejects.toMatchObject({
      code: "CONFLICT",
      toast: { title: "Usuário já cadastrado", description: "Este email já está sendo usado. Por favor, faça login ou use outro email." },
    });
  });

  it("refuses weak or very common passwords with the spec's message", async () => {
    for (const password of ["123456", "senha123", "qwerty"]) {
      const input = await signupInputFor(h, { password });
      await expect((await h.caller(null)).auth.signup(input)).rejects.toMatchObject({
        toast: { title: "Erro ao criar conta", description: "A senha escolhida é muito fraca. Por favor, escolha uma senha mais forte com letras, números e caracteres especiais." },
      });
    }
  });

  it("refuses a city that is not in the chosen state, and creates nothing", async () => {
    const input = await signupInputFor(h);
    await expect((await h.caller(null)).auth.signup({ ...input, stateId: input.stateId + 1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.db.select().from(schema.users).where(eq(schema.users.email, input.email))).toHaveLength(0);
  });

  it("validates the form with the spec's messages", async () => {
    const input = await signupInputFor(h);
    const caller = await h.caller(null);
    await expect(caller.auth.signup({ ...input, password: "abc" })).rejects.toMatchObject({ message: expect.stringContaining("Senha deve ter no mínimo 6 caracteres") });
    await expect(caller.auth.signup({ ...input, fullName: "   " })).rejects.toMatchObject({ message: expect.stringContaining("Nome é obrigatório") });
    await expect(caller.auth.signup({ ...input, email: "x@" })).rejects.toMatchObject({ message: expect.stringContaining("Email inválido") });
    await expect(caller.auth.signup({ ...input, dataProcessingConsent: false as true })).rejects.toMatchObject({
      message: expect.stringContaining("Você precisa aceitar os termos obrigatórios (Termos de Uso, Política de Privacidade e Processamento de Dados)"),
    });
    await expect(caller.auth.signup({ ...input, isAdmin: true } as typeof input)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("gives no way to become admin: a new account has no role", async () => {
    const input = await signupInputFor(h);
    await (await h.caller(null)).auth.signup(input);
    const roles = await h.db.select().from(schema.userRoles).innerJoin(schema.users, eq(schema.users.id, schema.userRoles.userId)).where(eq(schema.users.email, input.email));
    expect(roles).toHaveLength(0);
  });
});
