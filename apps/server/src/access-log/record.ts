import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import type { Actor } from "./actor";

/** The columns an access row takes from its actor, as SQL values for `insert … select`. */
export const actorValues = (a: Actor) =>
  sql`${a.userId}::uuid, ${a.schoolId}::uuid, ${a.organizationName}, ${a.role}, ${a.firstName}, ${a.requestId}, ${a.viaApiToken}`;

/** Records a decision on a proof (inside the decision's transaction). */
export async function recordProofDecision(tx: Database, actor: Actor, proofId: string, outcome: "verificado" | "recusado", at: Date) {
  await tx.execute(sql`
    insert into enrollment_proof_views (proof_id, viewer_id, viewer_school_id, organization_name, viewer_role, viewer_first_name, request_id, via_api_token, viewed_at, action, outcome, purpose)
    values (${proofId}, ${actorValues(actor)}, ${at.toISOString()}::timestamptz, 'decision', ${outcome}, 'verificacao_matricula')`);
}

/** Records a desk lookup or confirmation of a voucher whose holder still has an account. */
export async function recordDeskView(db: Database, actor: Actor, voucherId: string, action: "lookup" | "confirm" | "cancel", at: Date) {
  await db.execute(sql`
    insert into voucher_desk_views (holder_id, voucher_id, viewer_id, school_id, organization_name, viewer_role, viewer_first_name, request_id, via_api_token, viewed_at, action)
    select t.user_id, t.id, ${actor.userId}::uuid, ${actor.schoolId}::uuid, ${actor.organizationName}, ${actor.role}, ${actor.firstName}, ${actor.requestId}, ${actor.viaApiToken}, ${at.toISOString()}::timestamptz, ${action}
    from discount_transactions t where t.id = ${voucherId} and t.user_id is not null`);
}
