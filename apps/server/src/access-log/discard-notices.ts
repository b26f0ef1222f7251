import type { Database } from "@elo/db";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/raw";
import { discardCopiesEmail, enqueueTemplate, type EmailEnv } from "../mail/templates";
import type { Mailer } from "../mail/mailer";

/**
 * LGPD art. 18 § 6 (issue 27): when a parent deletes the account, replaces a proof, or changes the
 * school an enrollment names (the proof is withdrawn, decision 193), the approved
 * staff of every school that opened one of `proofs` get ONE notice each asking them to discard
 * copies. Queued inside the caller's transaction (before the proofs are deleted or replaced rows
 * read), keyed to the recipient, never to the parent (the parent's rows cascade with the account).
 * The notice names no child and links nothing. Returns how many were queued.
 */
export type NoticeDeps = { mailer: Mailer; config: EmailEnv };

/** `p.id in (…)`: the proofs a notice is about, for queueDiscardNotices. */
export const proofIdsIn = (ids: readonly string[]) => sql`p.id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`;

export async function queueDiscardNotices(deps: NoticeDeps, tx: Database, parentId: string, proofs: SQL): Promise<number> {
  const recipients = await queryRows<{ id: string; email: string; full_name: string | null }>(
    tx,
    sql`
    select distinct u.id, u.email, pr.full_name
    from enrollment_proof_views v
    join enrollment_proofs p on p.id = v.proof_id
    join school_memberships m on m.school_id = v.viewer_school_id and m.status = 'approved'
    join users u on u.id = m.user_id
    left join profiles pr on pr.user_id = u.id
    where v.action = 'opening' and v.viewer_school_id is not null and p.user_id = ${parentId} and (${proofs}) and u.id <> ${parentId}
    order by u.id`,
  );
  for (const r of recipients) {
    await enqueueTemplate(deps, tx, discardCopiesEmail, r.email, { userId: r.id }, { recipientName: r.full_name?.trim().split(/\s+/)[0] || null });
  }
  return recipients.length;
}
