import { schema } from "@elo/db";
import { createSession } from "../../src/auth/session";
import { generateSecret, hashSecret } from "../../src/auth/tokens";
import type { Harness } from "../support/harness";
import { createApiToken } from "../support/factories/apiTokens";
import { addEnrollment, createDiscount, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";
import { insertProof } from "../support/factories/proofs";
import { insertVoucher } from "../support/factories/vouchers";

/** The seven callers of the matrix. */
export const ACTORS = ["anonymous", "parentA", "parentBonA", "pendingInstitution", "staffAonB", "staffA", "admin"] as const;
export type Actor = (typeof ACTORS)[number];

/**
 * Two schools with approved staff, two eligible parents, a pending institution user, an admin
 * (an ordinary parent account with the admin role, as `admin:create` makes one) and rows owned by
 * each: benefits, vouchers, an enrollment, an API token, sessions and a reset token, so that every
 * kind of secret hash exists in the database while the procedures run.
 */
export async function buildWorld(h: Harness) {
  const schoolA = await createSchool(h, { niche: "Idiomas", plan: "gold" });
  const schoolB = await createSchool(h, { niche: "Idiomas", plan: "gold" });
  const parentA = await eligibleParent(h);
  const parentB = await eligibleParent(h);
  const staffA = await createStaff(h, schoolA.id);
  const staffB = await createStaff(h, schoolB.id);
  const pending = await createStaff(h, schoolA.id, "pending");
  const admin = await createAdmin(h);
  const benefitA = await createDiscount(h, schoolA.id, { slots: 50 });
  const benefitB = await createDiscount(h, schoolB.id, { slots: 50 });
  const voucherA = await insertVoucher(h, benefitA, parentA.id);
  const voucherB = await insertVoucher(h, benefitB, parentA.id);
  const enrollmentA = await addEnrollment(h, parentA.id, schoolB.id);
  const tokenA = await createApiToken(h, parentA.id);
  // Enrollment proofs naming each school (issue 21), of parents of that school.
  const proofA = await insertProof(h, (await eligibleParent(h, { schoolId: schoolA.id })).id, schoolA.id);
  const proofB = await insertProof(h, (await eligibleParent(h, { schoolId: schoolB.id })).id, schoolB.id);
  const users = { parentA, parentB, staffA, staffB, pending, admin };
  for (const u of Object.values(users)) await createSession(h.db, h.clock, u.id, "matriz");
  await h.db.insert(schema.passwordResetTokens).values({ id: hashSecret(generateSecret()), userId: parentA.id, expiresAt: new Date(Date.now() + 3_600_000) });
  return { schoolA, schoolB, benefitA, benefitB, voucherA, voucherB, enrollmentA, tokenA, proofA, proofB, ...users };
}
export type World = Awaited<ReturnType<typeof buildWorld>>;

/** Who each actor is (null: nobody). */
function actorUser(w: World, actor: Actor): { id: string; password: string } | null {
  switch (actor) {
    case "anonymous":
      return null;
    case "parentA":
      return w.parentA;
    case "parentBonA":
      return w.parentB;
    case "pendingInstitution":
      return w.pending;
    case "staffAonB":
    case "staffA":
      return w.staffA;
    case "admin":
      return w.admin;
  }
}

export const actorUserId = (w: World, actor: Actor) => actorUser(w, actor)?.id ?? null;

/**
 * The rows an actor's call points at: parent A's rows for everyone; school B's rows for
 * "staff of A on B", school A's otherwise.
 */
export function targetOf(w: World, actor: Actor) {
  const onB = actor === "staffAonB";
  return {
    school: onB ? w.schoolB : w.schoolA,
    benefit: onB ? w.benefitB : w.benefitA,
    voucher: onB ? w.voucherB : w.voucherA,
    proof: onB ? w.proofB : w.proofA,
    enrollment: w.enrollmentA,
    transactionId: w.voucherA.id,
    tokenId: w.tokenA.id,
    /** The actor's own password, for procedures that ask for it again (account deletion). */
    password: actorUser(w, actor)?.password ?? "sem-conta",
  };
}
export type Target = ReturnType<typeof targetOf>;

/** Every secret hash stored right now: session ids, API token hashes, reset and confirmation token ids, password hashes. */
export async function storedSecrets(h: Harness) {
  const [sessions, tokens, resets, confirmations, users] = await Promise.all([
    h.db.select({ v: schema.sessions.id }).from(schema.sessions),
    h.db.select({ v: schema.apiTokens.tokenHash }).from(schema.apiTokens),
    h.db.select({ v: schema.passwordResetTokens.id }).from(schema.passwordResetTokens),
    h.db.select({ v: schema.emailConfirmationTokens.id }).from(schema.emailConfirmationTokens),
    h.db.select({ v: schema.users.passwordHash }).from(schema.users),
  ]);
  return [...sessions, ...tokens, ...resets, ...confirmations, ...users].map((r) => r.v).filter((v): v is string => !!v);
}
