import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { generateSecret, hashSecret } from "../../src/auth/tokens";
import { encodeCursor } from "../../src/routers/marketplace/cursor";
import type { Harness } from "../support/harness";
import { csvForm } from "../support/factories/admin";
import { createDiscount, eligibleParent } from "../support/factories/benefits";
import { pngBytes, uploadForm } from "../support/factories/files";
import { insertProof } from "../support/factories/proofs";
import { createSchool, nicheIds, place } from "../support/factories/schools";
import { uniqueEmail } from "../support/factories/users";
import type { Actor, Target, World } from "./authz-world";

export type Outcome = "ok" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "BAD_REQUEST" | "PRECONDITION_FAILED";
export type Expectation = Record<Actor, Outcome>;

export interface MatrixEntry {
  /** A valid input for this actor's call (absent: the procedure takes none). */
  input?: (h: Harness, w: World, t: Target) => unknown;
  expect: Expectation;
  /**
   * Run on a world of its own: the calls change who the actors are (account deleted, membership
   * approved, password reset) or remove a row another procedure's entry points at. Within one
   * procedure, actors expected to be refused always run before those expected to succeed, so a
   * success can never hide a refusal (a row deleted first is "not found" for everyone after).
   */
  isolate?: boolean | "perActor";
}

const all = (o: Outcome): Expectation => ({ anonymous: o, parentA: o, parentBonA: o, pendingInstitution: o, staffAonB: o, staffA: o, admin: o });
const PUBLIC = all("ok");
const SIGNED_IN: Expectation = { ...all("ok"), anonymous: "UNAUTHORIZED" };
const ADMIN: Expectation = { ...all("FORBIDDEN"), anonymous: "UNAUTHORIZED", admin: "ok" };
/** Parent procedures on the caller's own data (the admin account is a parent account too). */
const PARENT: Expectation = { ...all("FORBIDDEN"), anonymous: "UNAUTHORIZED", parentA: "ok", parentBonA: "ok", admin: "ok" };
/** Parent procedures naming a row of parent A: only A may. */
const PARENT_ROW_OF_A: Expectation = { ...PARENT, parentBonA: "NOT_FOUND", admin: "NOT_FOUND" };
const INSTITUTION: Expectation = { ...all("FORBIDDEN"), anonymous: "UNAUTHORIZED", pendingInstitution: "ok", staffAonB: "ok", staffA: "ok" };
/** School staff procedures acting on the caller's own school. */
const STAFF: Expectation = { ...all("FORBIDDEN"), anonymous: "UNAUTHORIZED", staffAonB: "ok", staffA: "ok" };
/** School staff procedures naming a row of a school: staff of another school never reach it. */
const STAFF_ROW: Expectation = { ...STAFF, staffAonB: "NOT_FOUND" };
/** Any signed-in user on a row of parent A: only A. */
const OWN_ROW_OF_A: Expectation = { ...all("NOT_FOUND"), anonymous: "UNAUTHORIZED", parentA: "ok" };

async function freshResetToken(h: Harness, userId: string) {
  const token = generateSecret();
  await h.db.insert(schema.passwordResetTokens).values({ id: hashSecret(token), userId, expiresAt: new Date(h.clock.now().getTime() + 3_600_000) });
  return token;
}

/** A new pending proof naming `schoolId`, of a new parent: each decision has its own. */
async function pendingProofId(h: Harness, schoolId: string) {
  return { id: (await insertProof(h, (await eligibleParent(h, { schoolId: null })).id, schoolId)).id };
}

async function freshConfirmationToken(h: Harness, userId: string) {
  const token = generateSecret();
  await h.db.insert(schema.emailConfirmationTokens).values({ id: hashSecret(token), userId, expiresAt: new Date(h.clock.now().getTime() + 3_600_000) });
  return token;
}

const uniq = () => Math.random().toString(36).slice(2, 9);

/** A sold-out benefit of school A where parent A holds a place (waiting, or an open offer). */
async function soldOutWithPlaceOfA(h: Harness, w: World, status: "waiting" | "offered") {
  const benefit = await createDiscount(h, w.schoolA.id, { slots: 0, className: `Esgotada ${uniq()}` });
  const now = h.clock.now();
  await h.db.insert(schema.waitlistEntries).values({
    discountId: benefit.id,
    userId: w.parentA.id,
    status,
    ...(status === "offered" ? { offeredAt: now, offerExpiresAt: new Date(now.getTime() + 3_600_000) } : {}),
  });
  return benefit.id;
}

async function benefitValues(h: Harness) {
  const { categoryId, modalityId } = await nicheIds(h, "Idiomas");
  return {
    teachingStage: "iniciante" as const,
    categoryId,
    modalityId,
    className: `Turma ${uniq()}`,
    classPeriod: "tarde" as const,
    discountScope: "all_except_own" as const,
    monthlyFee: 300,
    discountPercentage: 10,
    discountValidity: "first_month" as const,
    numberOfStudents: 3,
  };
}

async function schoolDataValues(h: Harness) {
  const loc = await place(h);
  const { categoryId, modalityId } = await nicheIds(h, "Idiomas");
  return { name: `Escola Matriz ${uniq()}`, stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId, categoryId, modalityId };
}

/**
 * Every procedure of the app router, with a valid input and what each actor must get. The matrix
 * test fails for a procedure missing here, so a new procedure cannot ship without its access rule.
 */
export const AUTHZ_TABLE: Record<string, MatrixEntry> = {
  // ─── admin ───
  "admin.csv.import": {
    input: () => ({ rows: [{ index: 1, name: `Escola CSV ${uniq()}`, categoria: "Ed. Básica", modalidade: "", city: "São Paulo", uf: "SP", neighborhood: "", address: "", phone: "", whatsapp: "", cep: "" }] }),
    expect: ADMIN,
  },
  "admin.csv.preview": {
    input: () => csvForm(`name,categoria,modalidade,city,uf,neighborhood,address,phone,whatsapp,cep\nEscola Prévia ${uniq()},Ed. Básica,,São Paulo,SP,,,,,\n`),
    expect: ADMIN,
  },
  "admin.csv.template": { expect: ADMIN },
  "admin.memberships.approve": { input: async (h, w) => ({ id: await pendingMembershipId(h, w) }), expect: ADMIN, isolate: true },
  "admin.memberships.reject": { input: async (h, w) => ({ id: await pendingMembershipId(h, w) }), expect: ADMIN, isolate: true },
  "admin.memberships.pending": { expect: ADMIN },
  "admin.parents.list": { input: () => ({ purpose: "revisao_administrador" }), expect: ADMIN },
  "admin.parents.summary": { expect: ADMIN },
  "admin.verifications.confirm": { input: (h, _w, t) => pendingProofId(h, t.school.id), expect: ADMIN },
  "admin.verifications.list": { input: () => ({}), expect: ADMIN },
  "admin.verifications.open": { input: (_h, _w, t) => ({ id: t.proof.id, purpose: "revisao_administrador" }), expect: ADMIN },
  "admin.verifications.summary": { expect: ADMIN },
  "admin.verifications.refuse": { input: async (h, _w, t) => ({ ...(await pendingProofId(h, t.school.id)), reason: "ilegivel" }), expect: ADMIN },
  "admin.schools.delete": { input: async (h) => ({ id: (await createSchool(h)).id }), expect: ADMIN },
  "admin.schools.list": { input: () => ({}), expect: ADMIN },
  "admin.schools.merge": {
    input: async (h) => ({ sourceId: (await createSchool(h)).id, targetId: (await createSchool(h)).id }),
    expect: ADMIN,
  },
  "admin.schools.overview": { expect: ADMIN },
  "admin.operations.overview": { expect: ADMIN },
  "admin.operations.resendEmail": {
    input: async (h) => {
      const [row] = await h.db
        .insert(schema.emailOutbox)
        .values({ kind: "voucher", to: uniqueEmail("falha"), subject: "s", html: "h", text: "t", lastError: "550 refused" })
        .returning({ id: schema.emailOutbox.id });
      return { id: row!.id };
    },
    expect: ADMIN,
  },
  "admin.schools.markReviewed": {
    input: async (h) => {
      const school = await createSchool(h);
      await h.db.update(schema.schools).set({ origin: "parent_request" }).where(eq(schema.schools.id, school.id));
      return { id: school.id };
    },
    expect: ADMIN,
  },
  "admin.schools.removeLogo": { input: (_h, _w, t) => ({ id: t.school.id }), expect: ADMIN },
  "admin.schools.setPublicHidden": { input: (_h, _w, t) => ({ id: t.school.id, hidden: true }), expect: ADMIN },
  "admin.schools.update": { input: (_h, _w, t) => ({ id: t.school.id, name: `Escola Editada ${uniq()}` }), expect: ADMIN },
  "admin.schools.uploadLogo": { input: (_h, _w, t) => uploadForm(pngBytes(), "logo.png", { schoolId: t.school.id }, "image/png"), expect: ADMIN },

  // ─── API tokens ───
  "apiTokens.create": { input: () => ({ name: `Token ${uniq()}` }), expect: SIGNED_IN },
  "apiTokens.list": { expect: SIGNED_IN },
  "apiTokens.revoke": { input: (_h, _w, t) => ({ id: t.tokenId }), expect: OWN_ROW_OF_A },

  // ─── auth: public by nature; a secret in the input is the credential ───
  "auth.confirmEmail": { input: async (h, w) => ({ token: await freshConfirmationToken(h, w.parentA.id) }), expect: PUBLIC },
  "auth.resendConfirmation": { expect: SIGNED_IN },
  "auth.checkResetToken": { input: async (h, w) => ({ token: await freshResetToken(h, w.parentA.id) }), expect: PUBLIC },
  "auth.emailPreviews": { expect: ADMIN },
  "auth.login": { input: (_h, w) => ({ email: w.parentA.email, password: w.parentA.password }), expect: PUBLIC },
  "auth.logout": { expect: SIGNED_IN },
  "auth.me": { expect: PUBLIC },
  "auth.requestPasswordReset": { input: (_h, w) => ({ email: w.parentA.email }), expect: PUBLIC },
  "auth.resetPassword": { input: async (h, w) => ({ token: await freshResetToken(h, w.parentA.id), password: `Outra-Senha-Forte-${uniq()}` }), expect: PUBLIC, isolate: true },
  "auth.signup": {
    input: async (h) => {
      const loc = await place(h);
      return { profileType: "parent", fullName: "Nova Conta", email: uniqueEmail("matriz"), password: "Girassol-Azul-42", stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId, termsAccepted: true, dataProcessingConsent: true };
    },
    expect: PUBLIC,
  },

  // ─── claims ───
  "claim.byId": { input: (_h, _w, t) => ({ transactionId: t.transactionId }), expect: PARENT_ROW_OF_A },
  "claim.create": {
    input: async (h, w) => ({ discountId: (await createDiscount(h, w.schoolA.id, { className: `Turma ${uniq()}` })).id }),
    // The admin account is a parent with an incomplete profile: the claim rules refuse it.
    expect: { ...PARENT, admin: "PRECONDITION_FAILED" },
  },
  "claim.history": { expect: PARENT },
  "claim.giveUp": { input: (_h, _w, t) => ({ transactionId: t.transactionId }), expect: PARENT_ROW_OF_A, isolate: true },

  // ─── waitlist (decision 123) ───
  "waitlist.join": {
    input: async (h, w) => ({ discountId: (await createDiscount(h, w.schoolA.id, { slots: 0, className: `Esgotada ${uniq()}` })).id }),
    // The admin account is a parent with an incomplete profile: refused like a claim. Isolated:
    // profile.update, earlier in the shared world, leaves the parents' profiles incomplete.
    expect: { ...PARENT, admin: "PRECONDITION_FAILED" },
    isolate: true,
  },
  "waitlist.leave": { input: async (h, w) => ({ discountId: await soldOutWithPlaceOfA(h, w, "waiting") }), expect: PARENT_ROW_OF_A },
  "waitlist.mine": { expect: PARENT },
  "waitlist.claimOffer": { input: async (h, w) => ({ discountId: await soldOutWithPlaceOfA(h, w, "offered") }), expect: PARENT_ROW_OF_A, isolate: true },

  // ─── public pages ───
  "contact.send": { input: () => ({ subject: "Outro", name: "Visitante", email: uniqueEmail("contato"), message: "Olá" }), expect: PUBLIC },
  "landing.banner": { expect: PUBLIC },
  // With a cursor of ours (a later page), so the hostile sweep crafts cursors from it.
  "marketplace.list": { input: () => ({ limit: 24, cursor: encodeCursor({ gold: true, createdAt: "2024-02-29T23:59:59.123456+00:00", id: crypto.randomUUID() }) }), expect: SIGNED_IN },

  // ─── plan ───
  "plan.choose": { input: () => ({ plan: "silver" }), expect: STAFF },
  "plan.current": { expect: STAFF },

  // ─── privacy ───
  // "staff of A on B" and "staff of A" are one account: each deletion needs a world of its own.
  "privacy.deleteAccount": { input: (_h, _w, t) => ({ password: t.password }), expect: SIGNED_IN, isolate: "perActor" },
  "privacy.export": { expect: SIGNED_IN },
  "privacy.latestConsent": { expect: SIGNED_IN },
  "privacy.accessLog": { expect: PARENT },
  "admin.incidents.list": { expect: ADMIN },
  "admin.incidents.create": {
    input: () => ({ title: "Teste de autorização", detectedAt: new Date(), windowFrom: new Date(Date.now() - 3_600_000), windowTo: new Date(), nature: "Nenhum dado", accountsAffected: 0, childrenAffected: 0, measures: "Nenhuma" }),
    expect: ADMIN,
  },
  "admin.incidents.update": {
    input: async (h) => {
      const [row] = await h.db
        .insert(schema.incidents)
        .values({ title: "Teste de autorização", detectedAt: new Date(), windowFrom: new Date(Date.now() - 3_600_000), windowTo: new Date(), nature: "Nenhum dado", measures: "Nenhuma" })
        .returning({ id: schema.incidents.id });
      return { id: row!.id, changes: { status: "contido", measures: `Medida ${uniq()}` } };
    },
    expect: ADMIN,
  },
  "privacy.sharedWith": { expect: PARENT },

  // ─── parent profile ───
  "profile.changes": { expect: SIGNED_IN },
  "profile.enrollments.list": { expect: PARENT },
  "profile.enrollments.remove": { input: (_h, _w, t) => ({ id: t.enrollment.id }), expect: PARENT_ROW_OF_A, isolate: true },
  "profile.enrollments.save": { input: (_h, w, t) => ({ id: t.enrollment.id, schoolId: w.schoolA.id, notes: "Editado" }), expect: PARENT_ROW_OF_A },
  "profile.enrollments.saveSchool": { input: (_h, w, t) => ({ id: t.enrollment.id, schoolId: w.schoolA.id }), expect: PARENT_ROW_OF_A },
  "profile.get": { expect: PARENT },
  "profile.requestSchool": {
    input: async (h) => {
      const loc = await place(h);
      return { name: `Escola Pedida ${uniq()}`, stateId: loc.stateId, cityId: loc.cityId, neighborhoodId: loc.neighborhoodId, target: "enrollment" };
    },
    expect: PARENT,
  },
  "profile.saveMainSchool": { input: (_h, w) => ({ schoolId: w.parentA.schoolId }), expect: PARENT },
  "profile.update": { input: () => ({ phone: "11991234567", studentName: "Aluno Editado", publicSchoolPaidActivity: false }), expect: PARENT },

  // ─── reference lists ───
  "reference.categories": { expect: PUBLIC },
  "reference.cities": { input: async (h) => ({ stateId: (await place(h)).stateId }), expect: PUBLIC },
  "reference.modalities": { input: () => ({}), expect: PUBLIC },
  "reference.neighborhoods": { input: async (h) => ({ cityId: (await place(h)).cityId }), expect: PUBLIC },
  "reference.positions": { expect: PUBLIC },
  "reference.relationshipTypes": { expect: PUBLIC },
  "reference.states": { expect: PUBLIC },
  "schools.byNeighborhood": { input: async (h) => ({ neighborhoodId: (await place(h)).neighborhoodId }), expect: PUBLIC },

  // ─── school staff ───
  "school.benefits.create": { input: (h) => benefitValues(h), expect: STAFF },
  "school.benefits.delete": {
    input: async (h, _w, t) => ({ id: (await createDiscount(h, t.school.id, { className: `Turma ${uniq()}` })).id }),
    expect: STAFF_ROW,
  },
  "school.benefits.list": { expect: STAFF },
  "school.benefits.pause": { input: (_h, _w, t) => ({ id: t.benefit.id }), expect: STAFF_ROW },
  "school.benefits.reactivate": { input: (_h, _w, t) => ({ id: t.benefit.id }), expect: STAFF_ROW },
  // The target benefit has issued vouchers, so its terms (fee, percentage, validity) stay as they are.
  "school.benefits.update": {
    input: async (h, _w, t) => ({
      id: t.benefit.id,
      values: { ...(await benefitValues(h)), monthlyFee: Number(t.benefit.monthlyFee), discountPercentage: Number(t.benefit.discountPercentage), discountValidity: t.benefit.discountValidity },
    }),
    expect: STAFF_ROW,
  },
  "school.data.deleteLogo": { expect: STAFF },
  "school.data.get": { expect: STAFF },
  "school.data.save": { input: (h) => schoolDataValues(h), expect: STAFF },
  "school.data.setPublicPage": { input: () => ({ publicPage: false }), expect: STAFF },
  "school.charts": { expect: STAFF },
  "school.home": { expect: STAFF },
  "school.reservedDetails": { expect: STAFF },
  "school.profile.get": { expect: INSTITUTION },
  "school.profile.save": { input: (_h, _w, t) => ({ fullName: "Secretária Matriz", schoolId: t.school.id }), expect: INSTITUTION, isolate: true },
  "school.profile.schools": { input: async (h) => ({ neighborhoodId: (await place(h)).neighborhoodId }), expect: INSTITUTION },
  // Another school's voucher code is refused as "of another school" (never its details).
  "school.vouchers.cancel": { input: (_h, _w, t) => ({ code: t.voucher.voucherCode, reason: "nao_matriculado" }), expect: { ...STAFF, staffAonB: "FORBIDDEN" }, isolate: true },
  "school.vouchers.confirm": { input: (_h, _w, t) => ({ code: t.voucher.voucherCode }), expect: { ...STAFF, staffAonB: "FORBIDDEN" } },
  // Issue 21: proofs naming the school; staff of another school never reach them.
  "school.verifications.confirm": { input: (h, _w, t) => pendingProofId(h, t.school.id), expect: STAFF_ROW },
  "school.verifications.list": { expect: STAFF },
  "school.verifications.open": { input: (_h, _w, t) => ({ id: t.proof.id }), expect: STAFF_ROW },
  "school.verifications.refuse": { input: async (h, _w, t) => ({ ...(await pendingProofId(h, t.school.id)), reason: "outro", note: "Sem carimbo" }), expect: STAFF_ROW },
  "school.vouchers.list": { input: () => ({}), expect: STAFF },
  "school.waitlist.list": { expect: STAFF },
  "school.vouchers.lookup": { input: (_h, _w, t) => ({ code: t.voucher.voucherCode }), expect: { ...STAFF, staffAonB: "FORBIDDEN" } },
  // Issue 29: webhook endpoints of the caller's own school; another school's ids are not found.
  "school.webhooks.list": { expect: STAFF },
  "school.webhooks.create": { input: () => ({ url: "http://localhost:9/hook", events: ["voucher.used"] }), expect: STAFF, isolate: true },
  "school.webhooks.update": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id), description: "ERP" }), expect: STAFF_ROW },
  "school.webhooks.pause": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.resume": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.delete": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.rotateSecret": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.deliveries": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.test": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id) }), expect: STAFF_ROW },
  "school.webhooks.resend": { input: async (h, _w, t) => ({ id: await endpointOf(h, t.school.id), eventId: await eventOf(h, t.school.id) }), expect: STAFF_ROW },
};

/** A webhook endpoint of `schoolId`, straight into the table (each call its own). */
async function endpointOf(h: Harness, schoolId: string) {
  const [row] = await h.db
    .insert(schema.webhookEndpoints)
    .values({ schoolId, url: "http://localhost:9/hook", events: ["voucher.used"], secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}` })
    .returning({ id: schema.webhookEndpoints.id });
  return row!.id;
}

/** A webhook event of `schoolId`. */
async function eventOf(h: Harness, schoolId: string) {
  const [row] = await h.db.insert(schema.webhookEvents).values({ schoolId, type: "ping", payload: {} }).returning({ id: schema.webhookEvents.id });
  return row!.id;
}

async function pendingMembershipId(h: Harness, w: World) {
  const [m] = await h.db.select({ id: schema.schoolMemberships.id }).from(schema.schoolMemberships).where(eq(schema.schoolMemberships.userId, w.pending.id));
  return m!.id;
}
