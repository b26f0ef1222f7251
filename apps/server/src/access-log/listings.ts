import type { Database } from "@elo/db";
import type { AccessPurpose } from "@elo/shared";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Actor } from "./actor";

/** A Postgres uuid[] literal of ids read from the database (never user text). */
const uuidArray = (ids: readonly string[]) => `{${ids.join(",")}}`;

/**
 * Records that a listing showed these parents (decision 192): one row per parent, all in ONE
 * INSERT sharing a listing id, before the rows are handed out (a failed insert fails the listing:
 * nothing is shown unlogged). Parents deleted meanwhile are skipped.
 */
export async function recordParentListing(db: Database, actor: Actor, holderIds: readonly string[], why: { purpose: AccessPurpose; ticket: string | null }, at: Date) {
  if (holderIds.length === 0) return;
  await db.execute(sql`
    insert into parent_listing_views (holder_id, listing_id, listing, viewer_id, viewer_school_id, organization_name, viewer_role, viewer_first_name, request_id, via_api_token, purpose, ticket, viewed_at)
    select u.id, ${randomUUID()}::uuid, 'admin_parents', ${actor.userId}::uuid, ${actor.schoolId}::uuid, ${actor.organizationName}, ${actor.role}, ${actor.firstName}, ${actor.requestId}, ${actor.viaApiToken},
           ${why.purpose}, ${why.ticket}, ${at.toISOString()}::timestamptz
    from users u where u.id = any(${uuidArray(holderIds)}::uuid[])`);
}

/** Records that the desk's voucher list showed these vouchers (one INSERT; vouchers whose holder has no account are skipped). */
export async function recordDeskListing(db: Database, actor: Actor, voucherIds: readonly string[], at: Date) {
  if (voucherIds.length === 0) return;
  await db.execute(sql`
    insert into voucher_desk_views (holder_id, voucher_id, viewer_id, school_id, organization_name, viewer_role, viewer_first_name, request_id, via_api_token, viewed_at, action)
    select t.user_id, t.id, ${actor.userId}::uuid, ${actor.schoolId}::uuid, ${actor.organizationName}, ${actor.role}, ${actor.firstName}, ${actor.requestId}, ${actor.viaApiToken}, ${at.toISOString()}::timestamptz, 'list'
    from discount_transactions t where t.id = any(${uuidArray(voucherIds)}::uuid[]) and t.user_id is not null`);
}
