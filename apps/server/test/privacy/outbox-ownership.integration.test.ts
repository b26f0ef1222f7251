import { schema } from "@elo/db";
import { describe, expect, it } from "vitest";
import { mutate } from "../load/storm";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { place } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { uniqueEmail } from "../support/factories/users";
import { withServer, type Harness, type TestServer } from "../support/harness";

/**
 * Issue 15, point 1: an account deletion removes the outbox rows of that account only. Every
 * e-mail here is queued by the real procedures over HTTP, and the deletion is a real request.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s), { env: { ADMIN_EMAIL: "plataforma@teste.com.br" } });

const outboxIds = async () => new Set((await h.db.select({ id: schema.emailOutbox.id }).from(schema.emailOutbox)).map((r) => r.id));
const minus = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x)).sort();

async function ok(path: string, input: unknown, cookie?: string) {
  const res = await mutate(server.url, path, input, cookie);
  expect(res.status, `${path}: ${res.body}`).toBe(200);
  return JSON.parse(res.body).result.data.json;
}

/** A parent who claims a voucher, asks for a reset link and registers a school: three e-mails, one to them and two to the admin about them. */
async function busyParent(fullName: string, discountId: string) {
  const parent = await eligibleParent(h, { profile: { fullName } });
  const cookie = await sessionCookie(h, parent.id);
  const loc = await place(h);
  await ok("claim.create", { discountId }, cookie);
  await ok("auth.requestPasswordReset", { email: parent.email });
  await server.deps.background.settled(); // the link is mailed just after the answer (decision 106)
  await ok("profile.requestSchool", { name: `Escola de ${fullName} ${Math.random().toString(36).slice(2, 8)}`, stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId }, cookie);
  await ok("contact.send", { subject: "Outro", name: fullName, email: parent.email, message: `Mensagem de ${fullName}` }, cookie);
  return { ...parent, cookie };
}

/** Queues other people's mail, then the account's own, deletes the account over HTTP and returns what is left. */
async function deleteAmongOthers(victimName: string, bystanderNames: string[]) {
  const offering = await createOfferingSchool(h);
  const discount = await createDiscount(h, offering.id, { slots: 50 });
  const start = await outboxIds();
  for (const name of bystanderNames) await busyParent(name, discount.id);
  // A visitor's message and a stranger's reset link, too.
  await ok("contact.send", { subject: "Benefícios", name: "Visitante", email: uniqueEmail("visitante"), message: `Conheço o ${victimName}?` });
  const others = minus(await outboxIds(), start);

  const victim = await busyParent(victimName, discount.id);
  const own = minus(await outboxIds(), new Set([...start, ...others]));
  expect(own).toHaveLength(4);

  const res = await mutate(server.url, "privacy.deleteAccount", { password: victim.password }, victim.cookie);
  expect(res.status, res.body).toBe(200);
  const left = await outboxIds();
  return { others, own, left };
}

describe("privacy.deleteAccount and the e-mail outbox", () => {
  it("an account named like the product deletes only its own e-mails: other people's vouchers, reset links and admin notices stay", async () => {
    // "Elo Escolar" is in every template (subject, header, footer).
    const { others, own, left } = await deleteAmongOthers("Elo Escolar", ["Ana Pereira", "Bruno Lima", "Carla Dias"]);
    expect(others.length).toBe(13);
    expect(others.filter((id) => !left.has(id)), "other people's e-mails deleted").toEqual([]);
    expect(own.filter((id) => left.has(id)), "the account's own e-mails kept").toEqual([]);
  });

  it("a parent named Maria does not delete the e-mails of Mariana", async () => {
    const { others, own, left } = await deleteAmongOthers("Maria", ["Mariana Souza", "Ana Maria Braga"]);
    expect(others.filter((id) => !left.has(id)), "other people's e-mails deleted").toEqual([]);
    expect(own.filter((id) => left.has(id)), "the account's own e-mails kept").toEqual([]);
  });

  it("the LGPD export lists the caller's e-mails (to them and about them), never another person's, and never their bodies", async () => {
    const offering = await createOfferingSchool(h);
    const discount = await createDiscount(h, offering.id, { slots: 10 });
    const other = await busyParent("Mariana Souza", discount.id);
    const me = await busyParent("Maria", discount.id);
    const data = await ok("privacy.export", undefined, me.cookie);
    expect(data.emails.map((e: { type: string }) => e.type).sort()).toEqual(["Mensagem do formulário de contato", "Recuperação de senha", "Solicitação de cadastro de escola", "Voucher de desconto"]);
    const text = JSON.stringify(data.emails);
    expect(text).not.toContain(other.email);
    expect(text).not.toContain("reset-password?token=");
  });
});
