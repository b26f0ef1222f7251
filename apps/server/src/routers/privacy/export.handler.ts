import { schema } from "@elo/db";
import { PRODUCT_NAME } from "@elo/shared";
import { aliasedTable, and, asc, desc, eq, or, sql } from "drizzle-orm";
import { EMAIL_TEMPLATES } from "../../mail/templates";
import type { Context } from "../../trpc/init";
import { absoluteUrl, SIGNED_URL_SECONDS } from "../../storage/storage";
import { listUserFiles, withStoredLeftovers } from "./user-files";
import { sharedWith, whoSaw } from "../../access-log/parent-view";

type Ctx = Context & { user: NonNullable<Context["user"]> };

const {
  users, profiles, userRoles, userConsents, enrollments, claimedDiscounts, discountTransactions, discounts, schools,
  schoolMemberships, subscriptions, apiTokens, sessions, loginAttempts, contactMessages, emailOutbox, waitlistEntries, enrollmentProofs, enrollmentProofViews,
} = schema;
const viewer = aliasedTable(profiles, "viewer");
const viewerSchool = aliasedTable(schools, "viewer_school");

/**
 * Everything the platform holds about the caller (LGPD Art. 18, II and V), as one JSON document.
 * Secrets (password hash, session ids, token hashes) are never included.
 */
export async function exportUserData({ ctx }: { ctx: Ctx }) {
  const userId = ctx.user.id;
  const db = ctx.db;
  const [account] = await db
    .select({ id: users.id, email: users.email, createdAt: users.createdAt, updatedAt: users.updatedAt })
    .from(users)
    .where(eq(users.id, userId));
  const email = account?.email ?? ctx.user.email;

  const [accessLog, shared] = await Promise.all([whoSaw(db, userId), sharedWith(db, ctx.config, userId)]);
  const [profile, roles, consents, enrollmentRows, claims, vouchers, memberships, plansChosen, tokens, sessionRows, logins, messages, emails, files, waitlist, proofs, proofOpenings] =
    await Promise.all([
      db.select().from(profiles).where(eq(profiles.userId, userId)).then((r) => r[0] ?? null),
      db.select({ role: userRoles.role, createdAt: userRoles.createdAt }).from(userRoles).where(eq(userRoles.userId, userId)),
      db
        .select({
          termsAccepted: userConsents.termsAccepted,
          privacyAccepted: userConsents.privacyAccepted,
          dataProcessingConsent: userConsents.dataProcessingConsent,
          marketingConsent: userConsents.marketingConsent,
          consentVersion: userConsents.consentVersion,
          userAgent: userConsents.userAgent,
          acceptedAt: userConsents.acceptedAt,
        })
        .from(userConsents)
        .where(eq(userConsents.userId, userId))
        .orderBy(desc(userConsents.acceptedAt)),
      db
        .select({
          id: enrollments.id,
          schoolId: enrollments.schoolId,
          schoolName: schools.name,
          institutionName: enrollments.institutionName,
          institutionType: enrollments.institutionType,
          studentName: enrollments.studentName,
          enrollmentNumber: enrollments.enrollmentNumber,
          period: enrollments.period,
          classNumber: enrollments.classNumber,
          startDate: enrollments.startDate,
          endDate: enrollments.endDate,
          notes: enrollments.notes,
          proofUrl: enrollments.proofUrl,
          status: enrollments.status,
          createdAt: enrollments.createdAt,
          updatedAt: enrollments.updatedAt,
        })
        .from(enrollments)
        .leftJoin(schools, eq(schools.id, enrollments.schoolId))
        .where(eq(enrollments.userId, userId))
        .orderBy(asc(enrollments.createdAt)),
      db
        .select({ discountId: claimedDiscounts.discountId, className: discounts.className, claimedAt: claimedDiscounts.createdAt })
        .from(claimedDiscounts)
        .innerJoin(discounts, eq(discounts.id, claimedDiscounts.discountId))
        .where(eq(claimedDiscounts.userId, userId))
        .orderBy(asc(claimedDiscounts.createdAt)),
      db
        .select({
          id: discountTransactions.id,
          voucherCode: discountTransactions.voucherCode,
          status: discountTransactions.status,
          claimedAt: discountTransactions.claimedAt,
          validUntil: discountTransactions.validUntil,
          redeemedAt: discountTransactions.redeemedAt,
          endedAt: discountTransactions.endedAt,
          cancelReason: discountTransactions.cancelReason,
          discountId: discountTransactions.discountId,
          className: discounts.className,
          discountPercentage: discounts.discountPercentage,
          monthlyFee: discounts.monthlyFee,
          discountedFee: discounts.discountedFee,
          schoolName: schools.name,
        })
        .from(discountTransactions)
        .innerJoin(discounts, eq(discounts.id, discountTransactions.discountId))
        .innerJoin(schools, eq(schools.id, discountTransactions.schoolId))
        .where(eq(discountTransactions.userId, userId))
        .orderBy(asc(discountTransactions.claimedAt)),
      db
        .select({
          schoolId: schoolMemberships.schoolId,
          schoolName: schools.name,
          position: schoolMemberships.position,
          status: schoolMemberships.status,
          requestedAt: schoolMemberships.requestedAt,
          decidedAt: schoolMemberships.decidedAt,
        })
        .from(schoolMemberships)
        .innerJoin(schools, eq(schools.id, schoolMemberships.schoolId))
        .where(eq(schoolMemberships.userId, userId))
        .orderBy(asc(schoolMemberships.requestedAt)),
      db
        .select({ schoolName: schools.name, planType: subscriptions.planType, status: subscriptions.status, startedAt: subscriptions.startedAt })
        .from(subscriptions)
        .innerJoin(schools, eq(schools.id, subscriptions.schoolId))
        .where(eq(subscriptions.userId, userId)),
      db
        .select({ name: apiTokens.name, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt, expiresAt: apiTokens.expiresAt, revokedAt: apiTokens.revokedAt })
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(asc(apiTokens.createdAt)),
      db
        .select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.createdAt)),
      db
        .select({ success: loginAttempts.success, userAgent: loginAttempts.userAgent, createdAt: loginAttempts.createdAt })
        .from(loginAttempts)
        .where(eq(loginAttempts.email, email))
        .orderBy(desc(loginAttempts.createdAt))
        .limit(500),
      db
        .select({ subject: contactMessages.subject, name: contactMessages.name, email: contactMessages.email, message: contactMessages.message, createdAt: contactMessages.createdAt })
        .from(contactMessages)
        .where(or(eq(contactMessages.userId, userId), eq(sql`lower(${contactMessages.email})`, email)))
        .orderBy(asc(contactMessages.createdAt)),
      // E-mails to the user and those about the user, by key; never the bodies (a reset link is a secret).
      db
        .select({ kind: emailOutbox.kind, to: emailOutbox.to, subject: emailOutbox.subject, status: emailOutbox.status, createdAt: emailOutbox.createdAt, sentAt: emailOutbox.sentAt })
        .from(emailOutbox)
        .where(or(eq(emailOutbox.userId, userId), eq(emailOutbox.aboutUserId, userId)))
        .orderBy(asc(emailOutbox.createdAt)),
      listUserFiles(db, userId).then((referenced) => withStoredLeftovers(ctx.storage, userId, referenced)),
      db
        .select({
          discountId: waitlistEntries.discountId,
          className: discounts.className,
          status: waitlistEntries.status,
          joinedAt: waitlistEntries.createdAt,
          offeredAt: waitlistEntries.offeredAt,
          offerExpiresAt: waitlistEntries.offerExpiresAt,
          endedAt: waitlistEntries.endedAt,
        })
        .from(waitlistEntries)
        .innerJoin(discounts, eq(discounts.id, waitlistEntries.discountId))
        .where(eq(waitlistEntries.userId, userId))
        .orderBy(asc(waitlistEntries.createdAt)),
      db
        .select({
          id: enrollmentProofs.id,
          enrollmentId: enrollmentProofs.enrollmentId,
          schoolName: schools.name,
          studentName: enrollmentProofs.studentName,
          declaredClass: enrollmentProofs.declaredClass,
          status: enrollmentProofs.status,
          refusalReason: enrollmentProofs.refusalReason,
          refusalNote: enrollmentProofs.refusalNote,
          submittedAt: enrollmentProofs.submittedAt,
          decidedAt: enrollmentProofs.decidedAt,
          decidedByAdmin: enrollmentProofs.decidedByAdmin,
          verifiedUntil: enrollmentProofs.verifiedUntil,
          replacedAt: enrollmentProofs.replacedAt,
        })
        .from(enrollmentProofs)
        .innerJoin(schools, eq(schools.id, enrollmentProofs.schoolId))
        .where(eq(enrollmentProofs.userId, userId))
        .orderBy(asc(enrollmentProofs.submittedAt)),
      // Every opening of the user's proofs by a school's staff or an administrator: who and when.
      db
        .select({
          proofId: enrollmentProofViews.proofId,
          viewerName: viewer.fullName,
          viewerSchool: viewerSchool.name,
          byAdministrator: sql<boolean>`${enrollmentProofViews.viewerSchoolId} is null`,
          viewedAt: enrollmentProofViews.viewedAt,
          action: enrollmentProofViews.action,
          outcome: enrollmentProofViews.outcome,
          organizationName: enrollmentProofViews.organizationName,
          viewerRole: enrollmentProofViews.viewerRole,
          viewerFirstName: enrollmentProofViews.viewerFirstName,
          purpose: enrollmentProofViews.purpose,
          ticket: enrollmentProofViews.ticket,
          viaApiToken: enrollmentProofViews.viaApiToken,
        })
        .from(enrollmentProofViews)
        .innerJoin(enrollmentProofs, eq(enrollmentProofs.id, enrollmentProofViews.proofId))
        .leftJoin(viewer, eq(viewer.userId, enrollmentProofViews.viewerId))
        .leftJoin(viewerSchool, eq(viewerSchool.id, enrollmentProofViews.viewerSchoolId))
        .where(and(eq(enrollmentProofs.userId, userId), eq(enrollmentProofViews.action, "opening")))
        .orderBy(asc(enrollmentProofViews.viewedAt)),
    ]);

  return {
    product: PRODUCT_NAME,
    exportedAt: ctx.clock.now().toISOString(),
    account: account ?? { id: userId, email },
    profile,
    roles: roles.length ? roles : [{ role: "user" as const, createdAt: null }],
    consents,
    enrollments: enrollmentRows,
    enrollmentProofs: proofs,
    enrollmentProofOpenings: proofOpenings,
    // Issue 27: the same lists the parent sees on /privacidade-lgpd.
    whoSawMyData: accessLog,
    sharedWith: shared,
    claims,
    vouchers,
    waitlist,
    schoolMemberships: memberships,
    plansChosen,
    apiTokens: tokens,
    sessions: sessionRows,
    loginAttempts: logins,
    contactMessages: messages,
    emails: emails.map(({ kind, ...email }) => ({ type: EMAIL_TEMPLATES.find((t) => t.kind === kind)?.label ?? kind, ...email })),
    files: await Promise.all(
      files.map(async (f) => ({ ...f, url: absoluteUrl(ctx.config.publicOrigin, await ctx.storage.signedUrl(f.bucket, f.key)), expiresInSeconds: SIGNED_URL_SECONDS })),
    ),
  };
}
