import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Before an account's rows cascade away (decision 194): the record of the operations others did on
 * its data (LGPD art. 37; kept under art. 16 I) is copied to `erased_access_log`, keyed by the hash
 * of the account's id (the deletion ledger's key), without the child's name, the file or the voucher
 * code. The holder's own openings are not kept. One statement; returns how many rows were kept.
 */
export async function keepErasedAccessLog(tx: Tx, userId: string, accountHash: string, erasedAt: Date): Promise<number> {
  const at = erasedAt.toISOString();
  const result = await tx.execute(sql`
    insert into erased_access_log (account_hash, kind, action, outcome, viewer_id, viewer_school_id, organization_name, viewer_role, viewer_first_name, purpose, ticket, request_id, via_api_token, viewed_at, erased_at)
    select ${accountHash}, 'proof', v.action, v.outcome, v.viewer_id, v.viewer_school_id, v.organization_name, v.viewer_role, v.viewer_first_name, v.purpose, v.ticket, v.request_id, v.via_api_token, v.viewed_at, ${at}::timestamptz
    from enrollment_proof_views v join enrollment_proofs p on p.id = v.proof_id
    where p.user_id = ${userId} and v.viewer_id is distinct from ${userId}
    union all
    select ${accountHash}, 'voucher', d.action, null, d.viewer_id, d.school_id, d.organization_name, d.viewer_role, d.viewer_first_name, null, null, d.request_id, d.via_api_token, d.viewed_at, ${at}::timestamptz
    from voucher_desk_views d where d.holder_id = ${userId} and d.viewer_id is distinct from ${userId}
    union all
    select ${accountHash}, 'listing', l.listing, null, l.viewer_id, l.viewer_school_id, l.organization_name, l.viewer_role, l.viewer_first_name, l.purpose, l.ticket, l.request_id, l.via_api_token, l.viewed_at, ${at}::timestamptz
    from parent_listing_views l where l.holder_id = ${userId} and l.viewer_id is distinct from ${userId}`);
  return (result as unknown as { count?: number; affectedRows?: number }).count ?? (result as unknown as { affectedRows?: number }).affectedRows ?? 0;
}
