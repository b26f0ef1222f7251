import { schema } from "@elo/db";
import { guessGender, schoolMessages } from "@elo/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import { logoAddress } from "../../storage/logo";
import { AppError } from "../../trpc/errors";
import { schoolVerificationFigures } from "../verification/figures";
import { shownStatus, voucherOnlyColumns } from "../../vouchers/deadline";
import { todayInBrazil, type StaffContext } from "./staff-context";

const { schools, modalities, discounts, discountTransactions, profiles } = schema;

/**
 * /home-instituicao: the school's header data, the hero variant and the four counters. 'Benefícios
 * reservados' counts the reservations that stand (reserved or used: each holds its slot); the
 * conversion rate divides the used vouchers by every voucher issued, so an expired or cancelled one
 * still lowers it (decision 141).
 */
export async function schoolHome({ ctx }: { ctx: StaffContext }) {
  const [school] = await ctx.db
    .select({ id: schools.id, name: schools.name, logoUrl: schools.logoUrl, modality: modalities.name, city: schools.city, uf: schools.uf })
    .from(schools)
    .leftJoin(modalities, eq(modalities.id, schools.modalityId))
    .where(eq(schools.id, ctx.schoolId));
  if (!school) throw new AppError("NOT_FOUND", { title: "Erro ao carregar dados", description: schoolMessages.dashboardLoadError });
  const [profile] = await ctx.db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.userId, ctx.user.id));
  const [benefits] = await ctx.db
    .select({
      paused: sql<number>`count(*) filter (where ${discounts.status} = 'paused')::int`,
      available: sql<number>`count(*) filter (where ${discounts.status} = 'active' and ${discounts.numberOfStudents} > 0)::int`,
    })
    .from(discounts)
    .where(eq(discounts.schoolId, ctx.schoolId));
  const [vouchers] = await ctx.db
    .select({
      // As people see it: a reserved voucher past its last day is expired even before the job rewrites it.
      reserved: sql<number>`count(*) filter (where ${shownStatus(voucherOnlyColumns, todayInBrazil(ctx.clock.now()))} in ('reservado', 'utilizado'))::int`,
      issued: sql<number>`count(*)::int`,
      used: sql<number>`count(*) filter (where ${discountTransactions.status} = 'utilizado')::int`,
    })
    .from(discountTransactions)
    .where(eq(discountTransactions.schoolId, ctx.schoolId));
  const verification = await schoolVerificationFigures(ctx);
  const issued = vouchers?.issued ?? 0;
  const used = vouchers?.used ?? 0;
  return {
    school: { ...school, logoUrl: logoAddress(ctx.storage, school.logoUrl) },
    hero: guessGender(profile?.fullName) === "female" ? ("feminine" as const) : ("masculine" as const),
    counters: {
      reserved: vouchers?.reserved ?? 0,
      issued,
      used,
      paused: benefits?.paused ?? 0,
      available: benefits?.available ?? 0,
      conversionRate: conversionRate(used, issued),
    },
    /** Issue 21: families verified by this school (current), and proofs waiting for its decision. */
    verification,
  };
}

/** Vouchers used ÷ vouchers issued, as a percentage with one decimal (0 when none was issued). */
export const conversionRate = (used: number, issued: number): number => (issued === 0 ? 0 : Math.round((used / issued) * 1000) / 10);

/** The 'Detalhes dos Benefícios Reservados' rows, newest first. */
export function reservedDetails({ ctx }: { ctx: StaffContext }) {
  return ctx.db
    .select({
      transactionId: discountTransactions.id,
      className: discounts.className,
      teachingStage: discounts.teachingStage,
      classPeriod: discounts.classPeriod,
      discountPercentage: discounts.discountPercentage,
      discountValidity: discounts.discountValidity,
      studentName: profiles.studentName,
      voucherCode: discountTransactions.voucherCode,
      claimedAt: discountTransactions.claimedAt,
      status: discountTransactions.status,
    })
    .from(discountTransactions)
    .innerJoin(discounts, eq(discounts.id, discountTransactions.discountId))
    .leftJoin(profiles, eq(profiles.userId, discountTransactions.userId))
    .where(and(eq(discountTransactions.schoolId, ctx.schoolId), eq(discounts.schoolId, ctx.schoolId)))
    .orderBy(desc(discountTransactions.claimedAt))
    .limit(500);
}
