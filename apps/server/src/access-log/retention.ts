import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/raw";
import type { AppDeps } from "../deps";
import type { Job } from "../jobs/scheduler";

/** Decision 190: an access row lives as long as what it is about, plus 2 years, and never less than 6 months (Marco Civil, art. 15). */
export const RETENTION_AFTER_LIFE_MONTHS = 24;
export const RETENTION_MINIMUM_MONTHS = 6;
export const INCIDENT_RETENTION_YEARS = 5;
/** Rows per transaction: short transactions, nothing held for long. */
const BATCH = 5000;

/**
 * Deletes the access rows past retention, in batches, each in its own transaction with the
 * append-only trigger's `elo.purge` flag set locally (it ends with the transaction). A proof's
 * life ends when a newer proof replaces it; a voucher's when it was used, cancelled or lapsed
 * (its last valid day). Rows of a live proof or voucher are kept. Returns how many were deleted.
 */
export async function purgeAccessLog(deps: Pick<AppDeps, "db" | "clock">): Promise<number> {
  const now = deps.clock.now().toISOString();
  const lifeOver = sql`${now}::timestamptz - make_interval(months => ${RETENTION_AFTER_LIFE_MONTHS})`;
  const minimum = sql`${now}::timestamptz - make_interval(months => ${RETENTION_MINIMUM_MONTHS})`;
  let total = 0;
  for (const statement of [
    sql`delete from enrollment_proof_views where id in (
      select v.id from enrollment_proof_views v join enrollment_proofs p on p.id = v.proof_id
      where p.replaced_at is not null and p.replaced_at < ${lifeOver} and v.viewed_at < ${minimum}
      limit ${BATCH}) returning id`,
    sql`delete from voucher_desk_views where id in (
      select v.id from voucher_desk_views v join discount_transactions t on t.id = v.voucher_id
      where t.status <> 'reservado'
        and coalesce(t.redeemed_at, t.ended_at, (t.valid_until + 1)::timestamp at time zone 'America/Sao_Paulo') < ${lifeOver}
        and v.viewed_at < ${minimum}
      limit ${BATCH}) returning id`,
    // The listings' log: a listing's row has no life of its own beyond the account (decision 192).
    sql`delete from parent_listing_views where id in (
      select id from parent_listing_views where viewed_at < ${lifeOver} limit ${BATCH}) returning id`,
    // A deleted account's record (decision 194): the data's life ended at the erasure.
    sql`delete from erased_access_log where id in (
      select id from erased_access_log where erased_at < ${lifeOver} and viewed_at < ${minimum} limit ${BATCH}) returning id`,
  ]) {
    for (;;) {
      const deleted = await deps.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Database;
        await tx.execute(sql`set local elo.purge = 'on'`);
        return (await queryRows<{ id: string }>(tx, statement)).length;
      });
      total += deleted;
      if (deleted < BATCH) break;
    }
  }
  // The incidents register is kept 5 years from each record (decision 191); it is not append-only.
  const [gone] = await queryRows<{ n: number }>(
    deps.db,
    sql`with d as (delete from incidents where created_at < ${now}::timestamptz - make_interval(years => ${INCIDENT_RETENTION_YEARS}) returning 1) select count(*)::int as n from d`,
  );
  return total + (gone?.n ?? 0);
}

/** The scheduled purge (started with the server, like the voucher jobs). */
export const accessLogJobs = (deps: AppDeps): Job[] => [{ name: "purge-access-log", run: () => purgeAccessLog(deps) }];
