import { schema, type Database } from "@elo/db";
import { discountedFee } from "@elo/shared";
import { eq } from "drizzle-orm";
import { hashSecret } from "../../../src/auth/tokens";
import type { Storage } from "../../../src/storage/storage";
import { createSchool, nicheIds } from "./schools";
import { createUser, uniqueEmail } from "./users";

let counter = 0;
const randomLetters = () => Array.from({ length: 4 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("");
/** A voucher code in the NNNN-LLLL format, unique enough for tests. */
export const testVoucher = () => `${1000 + ((process.pid + ++counter * 37 + Math.floor(Math.random() * 9000)) % 9000)}-${randomLetters()}`;

/** A small valid PNG (1x1). */
export const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

export interface EverywhereOptions {
  /** When given, the avatar and proofs are really stored (integration tests). */
  storage?: Storage;
  email?: string;
  password?: string;
  fullName?: string;
  /** A valid CPF (digits). */
  cpf?: string;
}

/**
 * A parent with a row in every table that can hold personal data: profile with every field,
 * role, consents, enrollments with proofs, a claim and its voucher, a school membership request,
 * a chosen plan, an API token, sessions, a reset token, login history, a contact message and
 * e-mails, plus (with `storage`) the avatar and proof files. Also creates the schools involved.
 */
export async function createUserEverywhere(h: { db: Database }, opts: EverywhereOptions = {}) {
  const n = ++counter;
  const email = (opts.email ?? uniqueEmail("lgpd")).toLowerCase();
  const fullName = opts.fullName ?? `Beatriz Titular ${process.pid}x${n}`;
  const cpf = opts.cpf ?? "52998224725";
  const studentName = `Pedro Titular ${process.pid}x${n}`;
  const address = `Rua Secreta ${process.pid}x${n}, casa`;
  const ownSchool = await createSchool(h, { niche: "Ed. Básica", plan: "silver" });
  const offering = await createSchool(h, { niche: "Idiomas", plan: "gold" });
  const user = await createUser(h, {
    email,
    password: opts.password,
    profile: {
      fullName, phone: "11991234567", relationshipType: "Mãe", state: "SP", city: "São Paulo", neighborhood: "Pinheiros",
      studentName, studentBirthDate: "2015-05-20", studentCpf: cpf, studentAddress: address, studentAddressComplement: "Apto 7",
      studentNeighborhood: "Pinheiros", studentZipCode: "05422001", schoolName: ownSchool.name, schoolId: ownSchool.id,
      avatarUrl: "", enrollmentProofUrl: "", enrollmentProofSubmitted: true, profileCompleted: true,
    },
  });
  const avatarKey = `${user.id}/avatar.png`;
  const proofKey = `${user.id}/1700000000000.png`;
  const otherProofKey = `${user.id}/enrollment-1-1700000000001.png`;
  await h.db.update(schema.profiles).set({ avatarUrl: avatarKey, enrollmentProofUrl: proofKey }).where(eq(schema.profiles.userId, user.id));
  if (opts.storage) {
    await opts.storage.put("avatars", avatarKey, PNG_BYTES, "image/png");
    await opts.storage.put("enrollment_proofs", proofKey, PNG_BYTES, "image/png");
    await opts.storage.put("enrollment_proofs", otherProofKey, PNG_BYTES, "image/png");
  }

  await h.db.insert(schema.userRoles).values({ userId: user.id, role: "moderator" });
  await h.db.insert(schema.userConsents).values([
    { userId: user.id, termsAccepted: true, privacyAccepted: true, dataProcessingConsent: true, marketingConsent: false, userAgent: "Navegador antigo", acceptedAt: new Date(Date.now() - 86_400_000) },
    { userId: user.id, termsAccepted: true, privacyAccepted: true, dataProcessingConsent: true, marketingConsent: true, userAgent: "Navegador novo" },
  ]);
  await h.db.insert(schema.enrollments).values({
    userId: user.id, schoolId: offering.id, institutionName: offering.name, institutionType: "idiomas", studentName, enrollmentNumber: `MAT-${n}`,
    period: "tarde", classNumber: "Turma B", startDate: "2025-02-01", endDate: "2025-12-15", notes: "Observação pessoal", proofUrl: otherProofKey,
  });

  const ids = await nicheIds(h, "Idiomas");
  const fee = 400;
  const [discount] = await h.db
    .insert(schema.discounts)
    .values({
      schoolId: offering.id, teachingStage: "iniciante", ...ids, className: `Inglês Teste ${n}`, classPeriod: "tarde", discountScope: "all_except_own",
      monthlyFee: fee, discountPercentage: 25, discountedFee: discountedFee(fee, 25), discountValidity: "first_3_months", numberOfStudents: 4,
    })
    .returning({ id: schema.discounts.id });
  const voucherCode = testVoucher();
  await h.db.insert(schema.discountTransactions).values({ userId: user.id, discountId: discount!.id, schoolId: offering.id, voucherCode, validUntil: "2099-12-31" });
  await h.db.insert(schema.claimedDiscounts).values({ userId: user.id, discountId: discount!.id });

  await h.db.insert(schema.schoolMemberships).values({ userId: user.id, schoolId: ownSchool.id, position: "Coordenador(a)", status: "rejected" });
  await h.db.insert(schema.subscriptions).values({ schoolId: (await createSchool(h, { niche: "Clubes" })).id, userId: user.id, planType: "bronze" });
  await h.db.insert(schema.apiTokens).values({ userId: user.id, name: `Planilha da família ${n}`, tokenHash: hashSecret(`token-${user.id}`) });
  await h.db.insert(schema.sessions).values({ id: hashSecret(`session-${user.id}`), userId: user.id, expiresAt: new Date(Date.now() + 86_400_000), userAgent: "Navegador novo" });
  await h.db.insert(schema.passwordResetTokens).values({ id: hashSecret(`reset-${user.id}`), userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) });
  await h.db.insert(schema.loginAttempts).values({ email, success: false, userAgent: "Navegador novo" });
  await h.db.insert(schema.loginThrottles).values({ email, failedCount: 1 });
  await h.db.insert(schema.contactMessages).values({ subject: "Benefícios", name: fullName, email, message: "Minha dúvida pessoal", userId: user.id });
  await h.db.insert(schema.emailOutbox).values([
    { kind: "password-reset", to: email, userId: user.id, subject: "Redefinição de senha", html: "<p>link</p>", text: "link" },
    { kind: "enrollment-proof", to: "contato@eloescolar.com.br", aboutUserId: user.id, subject: "Comprovante", html: `<p>${fullName} enviou o comprovante de ${studentName}</p>`, text: `${fullName} enviou o comprovante de ${studentName}` },
  ]);

  return { ...user, fullName, studentName, cpf, address, ownSchool, offering, discountId: discount!.id, voucherCode, files: { avatarKey, proofKey, otherProofKey } };
}
