import { verificationMessages as v } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import type { StaffContext } from "../school/staff-context";
import { adminReviewer, schoolReviewer, visibleTo, type Reviewer } from "./reviewer";

const notFound = () => new AppError("NOT_FOUND", { title: v.openError, description: v.notFound });

/**
 * Opens a proof the reviewer may see: the opening is recorded (who, when; part of the parent's
 * LGPD export) in the same statement that reads the file's key, then a signed address is returned.
 */
async function openProof(ctx: Context, reviewer: Reviewer, proofId: string) {
  const now = ctx.clock.now();
  let rows: { file_key: string }[];
  try {
    rows = await queryRows<{ file_key: string }>(
      ctx.db,
      sql`
      with target as (
        select id, file_key from enrollment_proofs where id = ${proofId} and ${visibleTo(reviewer, now)}
      ),
      opened as (
        insert into enrollment_proof_views (proof_id, viewer_id, viewer_school_id, viewed_at)
        select id, ${reviewer.userId}, ${reviewer.kind === "school" ? reviewer.schoolId : null}::uuid, ${now.toISOString()}::timestamptz from target
        returning proof_id
      )
      select t.file_key from target t join opened o on o.proof_id = t.id`,
    );
  } catch (error) {
    // The parent deleted the account (or the proof) between the read and the insert.
    if (pgErrorCode(error) === "23503") throw notFound();
    throw error;
  }
  const key = rows[0]?.file_key;
  if (!key) throw notFound();
  return { url: await ctx.storage.signedUrl("enrollment_proofs", key) };
}

export const schoolOpenHandler = ({ ctx, input }: { ctx: StaffContext; input: { id: string } }) => openProof(ctx, schoolReviewer(ctx), input.id);
export const adminOpenHandler = ({ ctx, input }: { ctx: Context & { user: { id: string } }; input: { id: string } }) => openProof(ctx, adminReviewer(ctx), input.id);
