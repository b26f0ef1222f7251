import { schema } from "@elo/db";
import type { adminParentsListInput } from "@elo/shared";
import { and, count, desc, eq, ilike, notExists, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { actorOf } from "../../access-log/actor";
import { recordParentListing } from "../../access-log/listings";
import type { AdminCtx } from "./admin.types";

const { profiles, users, userRoles } = schema;

const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Parents only: profile_type parent, administrators left out. */
function parentsWhere(ctx: AdminCtx, extra?: SQL) {
  const notAdmin = notExists(
    ctx.db.select({ one: sql`1` }).from(userRoles).where(and(eq(userRoles.userId, profiles.userId), eq(userRoles.role, "admin"))),
  );
  return and(eq(profiles.profileType, "parent"), notAdmin, extra);
}

/** Totals for the summary cards. */
export async function parentsSummaryHandler({ ctx }: { ctx: AdminCtx }) {
  const [row] = await ctx.db
    .select({
      total: count(),
      completed: sql<number>`count(*) filter (where ${profiles.profileCompleted})`.mapWith(Number),
      proofs: sql<number>`count(*) filter (where ${profiles.enrollmentProofSubmitted})`.mapWith(Number),
    })
    .from(profiles)
    .where(parentsWhere(ctx));
  return { total: row?.total ?? 0, completed: row?.completed ?? 0, proofs: row?.proofs ?? 0 };
}

/**
 * The parents table, newest first, searchable by guardian, student, school or e-mail. It shows
 * names, e-mails and children: the administrator states a purpose (the input refuses without it)
 * and every parent shown is recorded for their 'Quem viu' in one INSERT before the page is
 * returned (decision 192).
 */
export async function listParentsHandler({ ctx, input }: { ctx: AdminCtx; input: z.output<typeof adminParentsListInput> }) {
  const q = input.search ? likeContains(input.search) : null;
  const search = q
    ? or(ilike(profiles.fullName, q), ilike(profiles.studentName, q), ilike(profiles.schoolName, q), ilike(users.email, q))
    : undefined;
  const where = parentsWhere(ctx, search);
  const [rows, [total], actor] = await Promise.all([
    ctx.db
      .select({
        userId: profiles.userId,
        email: users.email,
        fullName: profiles.fullName,
        studentName: profiles.studentName,
        schoolName: profiles.schoolName,
        profileCompleted: profiles.profileCompleted,
        enrollmentProofSubmitted: profiles.enrollmentProofSubmitted,
        // The live main proof, opened through admin.verifications.open with a stated purpose (issue 27):
        // the list never hands out the file's address itself.
        proofId: sql<string | null>`(select p.id from enrollment_proofs p where p.user_id = ${profiles.userId} and p.enrollment_id is null and p.replaced_at is null limit 1)`,
        createdAt: profiles.createdAt,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(where)
      .orderBy(desc(profiles.createdAt), desc(profiles.userId))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ total: count() }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(where),
    actorOf(ctx.db, ctx, ctx.user.id, null),
  ]);
  await recordParentListing(
    ctx.db,
    actor,
    rows.map((r) => r.userId),
    { purpose: input.purpose, ticket: input.purpose === "suporte" ? (input.ticket ?? null) : null },
    ctx.clock.now(),
  );
  ctx.logger.info({ reqId: ctx.requestId, viewer: ctx.user.id, listed: rows.length, purpose: input.purpose }, "parents listed");
  return {
    items: rows,
    total: total?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
