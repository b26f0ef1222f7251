import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { eligibleParent } from "../support/factories/benefits";
import { sessionCookie } from "../support/factories/sessions";
import { networkSchool } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

describe("'Quero este desconto' (issue 26)", () => {
  it("sends a visitor to /signup with the benefit, a signed-in parent straight to it on /home; no page for a benefit that is not current", async () => {
    const { benefits } = await networkSchool(h, { name: "Escola do Desconto", benefits: [{ className: "Xadrez" }, { className: "Pausado", status: "paused" }] });
    const id = benefits[0]!.id;
    const visitor = await fetch(`${server.url}/quero-este-desconto/${id}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/signup?beneficio=${id}`);

    const parent = await eligibleParent(h);
    const cookie = await sessionCookie(h, parent.id);
    const signedIn = await fetch(`${server.url}/quero-este-desconto/${id}`, { redirect: "manual", headers: { cookie } });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`/home?beneficio=${id}`);

    expect((await fetch(`${server.url}/quero-este-desconto/${benefits[1]!.id}`, { redirect: "manual" })).status).toBe(404);
    expect((await fetch(`${server.url}/quero-este-desconto/nada`, { redirect: "manual" })).status).toBe(404);
  });

  it("forgives what a pasted link drags after the id (a space, a full stop, a bracket), never another benefit's id", async () => {
    const { benefits } = await networkSchool(h, { name: "Escola do Link Colado", benefits: [{ className: "Violão" }, { className: "Pausado", status: "paused" }] });
    const id = benefits[0]!.id;
    for (const tail of ["%20", ".", ")", "%e2%80%8b", "-", "?utm_source=whatsapp", "%20?x=1"]) {
      const res = await fetch(`${server.url}/quero-este-desconto/${id}${tail}`, { redirect: "manual" });
      expect([tail, res.status, res.headers.get("location")]).toEqual([tail, 302, `/signup?beneficio=${id}`]);
    }
    // Not an id followed by a tail: a longer hex run, a paused benefit's id with a tail, a truncated id.
    for (const path of [`${id}0`, `${id}a`, `${benefits[1]!.id}.`, id.slice(0, 35), `x${id}`]) {
      expect([path, (await fetch(`${server.url}/quero-este-desconto/${path}`, { redirect: "manual" })).status]).toEqual([path, 404]);
    }
  });

  it("signup with the chosen benefit puts it in the confirmation link, which survives to the confirmation page", async () => {
    const { benefits } = await networkSchool(h, { name: "Escola do Link", benefits: [{ className: "Canto" }] });
    const id = benefits[0]!.id;
    const place = await h.db.query.neighborhoods.findFirst();
    const city = await h.db.query.cities.findFirst({ where: (c, { eq }) => eq(c.id, place!.cityId) });
    const email = `familia.${Date.now()}@teste.com.br`;
    await (await h.caller(null)).auth.signup({
      profileType: "parent", fullName: "Família Nova", email, password: "Senha#Forte123",
      stateId: city!.stateId, cityId: city!.id, neighborhoodId: place!.id,
      termsAccepted: true, dataProcessingConsent: true, benefitId: id,
    });
    await h.deps.background.settled();
    const [row] = await h.db.select({ data: schema.emailOutbox.data, text: schema.emailOutbox.text }).from(schema.emailOutbox).where(eq(schema.emailOutbox.to, email));
    const message = JSON.stringify(row);
    expect(message).toContain(`${TEST_ORIGIN}/confirmar-email?token=`);
    expect(message).toContain(`&beneficio=${id}`);
    // 'Reenviar e-mail' (the first message lost): the new link carries the same benefit, and so does a third.
    const user = await h.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) });
    for (let resend = 0; resend < 2; resend++) {
      await (await h.caller(user!.id)).auth.resendConfirmation();
      await h.deps.background.settled();
      const sent = await h.db.select({ data: schema.emailOutbox.data, text: schema.emailOutbox.text }).from(schema.emailOutbox).where(eq(schema.emailOutbox.to, email));
      expect(sent).toHaveLength(2 + resend);
      for (const m of sent) expect(JSON.stringify(m)).toContain(`&beneficio=${id}`);
    }
    // A benefit id that is not one is refused with the form's message.
    await expect((await h.caller(null)).auth.signup({
      profileType: "parent", fullName: "Família Nova", email: `x.${email}`, password: "Senha#Forte123",
      stateId: city!.stateId, cityId: city!.id, neighborhoodId: place!.id, termsAccepted: true, dataProcessingConsent: true, benefitId: "nada" as never,
    })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
