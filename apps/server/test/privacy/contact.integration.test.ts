import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { createUser } from "../support/factories/users";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_EMAIL: "plataforma@teste.com.br" } });
});
afterAll(() => h.close());

const valid = { subject: "Benefícios", name: "Carla Dias", email: "carla@teste.com.br", message: "Como funciona o plano Gold?" } as const;
const firstError = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: string; cause?: { issues?: { message: string }[] } };
    return { code: err.code, message: err.cause?.issues?.[0]?.message };
  }
  throw new Error("expected a refusal");
};

describe("contact.send", () => {
  it("stores the message and e-mails it to the platform address", async () => {
    const anon = await h.caller(null);
    expect(await anon.contact.send({ ...valid, email: "  CARLA@teste.com.br ", message: "<b>Olá</b>\nlinha 2" })).toEqual({ ok: true });
    const [row] = await h.db.select().from(schema.contactMessages).where(eq(schema.contactMessages.name, "Carla Dias"));
    expect(row).toMatchObject({ subject: "Benefícios", email: "carla@teste.com.br", message: "<b>Olá</b>\nlinha 2", userId: null });
    const [mail] = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "contact"));
    expect(mail?.to).toBe("plataforma@teste.com.br");
    expect(mail?.text).toContain("carla@teste.com.br");
    expect(mail?.html).toContain("&lt;b&gt;Olá&lt;/b&gt;");
    expect(mail?.html).not.toContain("<b>Olá</b>");
  });

  it("links the message to the signed-in sender", async () => {
    const user = await createUser(h);
    await (await h.caller(user.id)).contact.send({ ...valid, name: "Com Sessão" });
    const [row] = await h.db.select().from(schema.contactMessages).where(eq(schema.contactMessages.name, "Com Sessão"));
    expect(row?.userId).toBe(user.id);
  });

  it("refuses each bad field with the spec's message and stores nothing", async () => {
    const anon = await h.caller(null);
    const before = (await h.db.select().from(schema.contactMessages)).length;
    expect(await firstError(anon.contact.send({ ...valid, subject: "" as never }))).toEqual({ code: "BAD_REQUEST", message: "Selecione um assunto" });
    expect(await firstError(anon.contact.send({ ...valid, subject: "Reclamação" as never }))).toMatchObject({ message: "Selecione um assunto" });
    expect(await firstError(anon.contact.send({ ...valid, name: "   " }))).toMatchObject({ message: "Nome é obrigatório" });
    expect(await firstError(anon.contact.send({ ...valid, name: "a".repeat(101) }))).toMatchObject({ message: "Máximo de 100 caracteres" });
    expect(await firstError(anon.contact.send({ ...valid, email: "sem-arroba" }))).toMatchObject({ message: "Email inválido" });
    expect(await firstError(anon.contact.send({ ...valid, email: `${"a".repeat(250)}@x.com.br` }))).toMatchObject({ message: "Email inválido" });
    expect(await firstError(anon.contact.send({ ...valid, message: " " }))).toMatchObject({ message: "Mensagem é obrigatória" });
    expect(await firstError(anon.contact.send({ ...valid, message: "a".repeat(1001) }))).toMatchObject({ message: "Máximo de 1000 caracteres" });
    expect(await firstError(anon.contact.send({ ...valid, extra: 1 } as never))).toMatchObject({ code: "BAD_REQUEST" });
    expect((await h.db.select().from(schema.contactMessages)).length).toBe(before);
    // The limits themselves are accepted.
    expect(await anon.contact.send({ ...valid, name: "n".repeat(100), message: "m".repeat(1000) })).toEqual({ ok: true });
  });
});

describe("contact.send over HTTP", () => {
  let limited: Harness;
  let server: Awaited<ReturnType<Harness["startServer"]>>;
  beforeAll(async () => {
    limited = await createHarness({ env: { RATE_LIMIT: "1" } });
    server = await limited.startServer();
  });
  afterAll(async () => {
    await server.close();
    await limited.close();
  });

  const send = (name: string) =>
    fetch(`${server.url}/trpc/contact.send`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ json: { ...valid, name } }),
    });

  it("takes 5 messages per IP in 10 minutes, then answers 429 with a Portuguese toast and stores nothing more", async () => {
    for (let i = 1; i <= 5; i++) expect((await send(`Limite ${i}`)).status).toBe(200);
    const refused = await send("Limite 6");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { json: { data: { code: string; toast: { title: string } } } } };
    expect(body.error.json.data.code).toBe("TOO_MANY_REQUESTS");
    expect(body.error.json.data.toast.title).toBe("Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente.");
    const stored = await limited.db.select({ name: schema.contactMessages.name }).from(schema.contactMessages);
    expect(stored.map((r) => r.name).sort()).toEqual(["Limite 1", "Limite 2", "Limite 3", "Limite 4", "Limite 5"]);
    // Other procedures are not counted against the contact limit.
    expect((await fetch(`${server.url}/trpc/auth.me`)).status).toBe(200);
  });
});
