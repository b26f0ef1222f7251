import { schema, type Database } from "@elo/db";
import { ACCESS_PURPOSE_LABELS, formatDate, verificationMessages as v, type AccessPurpose } from "@elo/shared";
import { eq, sql } from "drizzle-orm";
import { actorOf } from "../../access-log/actor";
import { actorValues } from "../../access-log/record";
import { queryRows } from "../../db/raw";
import { enqueueTemplate, proofOpenedEmail } from "../../mail/templates";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";
import { adminReviewer, schoolReviewer, visibleTo, type Reviewer } from "./reviewer";

const { users, profiles } = schema;
const notFound = () => new AppError("NOT_FOUND", { title: v.openError, description: v.notFound });

type Purpose = { purpose: AccessPurpose; ticket: string | null };

/** "suporte com número do chamado 1234" as the parent reads it. */
export const purposeText = (p: { purpose: string | null; ticket: string | null }) =>
  p.purpose ? `${ACCESS_PURPOSE_LABELS[p.purpose as AccessPurpose] ?? p.purpose}${p.ticket ? ` ${p.ticket}` : ""}` : null;

/**
 * Opens a proof the reviewer may see. In one transaction: the parent's account row shared (the
 * lock order of decision 127), the opening recorded with who, in which role, why and the request
 * id (issue 27) in the statement that reads the file's key, and, when an administrator opened it,
 * the parent's e-mail queued. Then a signed address is returned.
 */
async function openProof(ctx: Context, reviewer: Reviewer, proofId: string, why: Purpose) {
  const now = ctx.clock.now();
  const actor = await actorOf(ctx.db, ctx, reviewer.userId, reviewer.kind === "school" ? reviewer.schoolId : null);
  let key: string | undefined;
  try {
    key = await ctx.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Database;
      await tx.execute(sql`select 1 from users where id = (select user_id from enrollment_proofs where id = ${proofId}) for share`);
      const [row] = await queryRows<{ file_key: string; user_id: string; student_name: string | null }>(
        tx,
        sql`
        with target as (
          select id, file_key, user_id, student_name from enrollment_proofs where id = ${proofId} and ${visibleTo(reviewer, now)}
        ),
        opened as (
          insert into enrollment_proof_views (proof_id, viewer_id, viewer_school_id, organization_name, viewer_role, viewer_first_name, request_id, via_api_token, viewed_at, action, purpose, ticket)
          select id, ${actorValues(actor)}, ${now.toISOString()}::timestamptz, 'opening', ${why.purpose}, ${why.ticket} from target
          returning proof_id
        )
        select t.file_key, t.user_id, t.student_name from target t join opened o on o.proof_id = t.id`,
      );
      if (!row) return undefined;
      if (reviewer.kind === "admin") {
        const [parent] = await tx.select({ email: users.email, name: profiles.fullName }).from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, row.user_id));
        if (parent) {
          await enqueueTemplate(ctx, tx, proofOpenedEmail, parent.email, { userId: row.user_id }, {
            parentName: parent.name,
            studentName: row.student_name,
            date: formatDate(now),
            purpose: purposeText(why)!,
            privacyUrl: `${ctx.config.publicOrigin}/privacidade-lgpd`,
          });
        }
      }
      return row.file_key;
    });
  } catch (error) {
    // The parent deleted the account (or the proof) between the read and the insert.
    if (pgErrorCode(error) === "23503") throw notFound();
    throw error;
  }
  if (!key) throw notFound();
  ctx.logger.info({ reqId: ctx.requestId, proofId, viewer: reviewer.userId, purpose: why.purpose }, "enrollment proof opened");
  return { url: await ctx.storage.signedUrl("enrollment_proofs", key) };
}

export const schoolOpenHandler = ({ ctx, input }: { ctx: StaffContext; input: { id: string } }) =>
  openProof(ctx, schoolReviewer(ctx), input.id, { purpose: "verificacao_matricula", ticket: null });
export const adminOpenHandler = ({ ctx, input }: { ctx: Context & { user: { id: string } }; input: { id: string; purpose: AccessPurpose; ticket?: string | null } }) =>
  openProof(ctx, adminReviewer(ctx), input.id, { purpose: input.purpose, ticket: input.purpose === "suporte" ? (input.ticket ?? null) : null });
