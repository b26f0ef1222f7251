import type { Database } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/raw";
import type { AppDeps } from "../deps";
import { enqueueTemplate, waitlistOfferEmail } from "../mail/templates";

/** What offering and ending waitlist places need from the app. */
export type WaitlistDeps = Pick<AppDeps, "clock" | "mailer" | "config">;

const OFFER_MS = LIMITS.waitlistOfferHours * 60 * 60 * 1000;

interface OfferedRow {
  id: string;
  user_id: string;
  email: string;
  full_name: string | null;
}

/**
 * Turns the free slots of an active benefit into offers to the first parents in line (decision
 * 123), inside the caller's transaction, which must already have returned the slot. The benefit row
 * is locked first — the lock every claim takes — so no claim can take a slot between "it is free"
 * and "it is offered", and two releases of one benefit offer one after the other. Each offered slot
 * leaves `number_of_students` (only its parent can claim it) and its e-mail is queued in the same
 * transaction. Waiting places locked by a parent leaving right now are skipped, never waited for,
 * so this never waits on a waitlist row while holding the benefit (no lock cycle with the paths
 * that lock a waitlist row first). Returns how many offers it made.
 */
export async function offerFreeSlots(deps: WaitlistDeps, tx: Database, discountId: string): Promise<number> {
  const [benefit] = await queryRows<{ free: number; class_name: string; school_name: string }>(
    tx,
    sql`select d.number_of_students as free, d.class_name, s.name as school_name
        from discounts d join schools s on s.id = d.school_id
        where d.id = ${discountId} and d.status = 'active'
        for update of d`,
  );
  if (!benefit || benefit.free <= 0) return 0;
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + OFFER_MS);
  const offered = await queryRows<OfferedRow>(
    tx,
    sql`
    with next as (
      select w.id from waitlist_entries w
      where w.discount_id = ${discountId} and w.status = 'waiting' and w.user_id is not null
      order by w.created_at, w.id
      limit ${benefit.free}
      for update skip locked
    ),
    offered as (
      update waitlist_entries w
      set status = 'offered', offered_at = ${now.toISOString()}::timestamptz, offer_expires_at = ${expiresAt.toISOString()}::timestamptz
      from next where w.id = next.id
      returning w.id, w.user_id
    ),
    held as (
      update discounts d
      set number_of_students = d.number_of_students - (select count(*) from offered), updated_at = ${now.toISOString()}::timestamptz
      where d.id = ${discountId} and exists (select 1 from offered)
    )
    select offered.id, u.id as user_id, u.email, p.full_name
    from offered join users u on u.id = offered.user_id left join profiles p on p.user_id = u.id`,
  );
  for (const o of offered) {
    await enqueueTemplate(deps, tx, waitlistOfferEmail, o.email, { userId: o.user_id, aboutUserId: null }, { parentName: o.full_name, schoolName: benefit.school_name, className: benefit.class_name, expiresAt });
  }
  return offered.length;
}

/**
 * Ends one open waitlist place selected by `target` (a query returning `id` and `was`, its status,
 * locking the row FOR UPDATE) as `status`; a place that held an offer gives its slot back to the
 * benefit in the same statement, and the slot is offered to the next in line. Null when the place
 * was no longer open. Lock order: waitlist row, then benefit.
 */
export async function endWaitlistPlace(deps: WaitlistDeps, tx: Database, target: SQL, status: "left" | "lapsed"): Promise<{ id: string; discount_id: string; was: "waiting" | "offered" } | null> {
  const now = deps.clock.now().toISOString();
  const [ended] = await queryRows<{ id: string; discount_id: string; was: "waiting" | "offered" }>(
    tx,
    sql`
    with target as (${target}),
    ended as (
      update waitlist_entries w set status = ${status}::waitlist_status, ended_at = ${now}::timestamptz
      from target where w.id = target.id and w.status = target.was and w.status in ('waiting', 'offered')
      returning w.id, w.discount_id, target.was
    ),
    back as (
      update discounts d set number_of_students = d.number_of_students + 1, updated_at = ${now}::timestamptz
      from ended where d.id = ended.discount_id and ended.was = 'offered'
    )
    select * from ended`,
  );
  if (ended?.was === "offered") await offerFreeSlots(deps, tx, ended.discount_id);
  return ended ?? null;
}

/** Offers that lapse in one run of the job at most. */
export const LAPSE_BATCH = 200;

/**
 * The job: offers whose 48 hours have passed lapse, one per transaction with SKIP LOCKED (as the
 * expiry job, decision 120), and each slot passes to the next in line or back to the benefit.
 */
export async function lapseDueOffers(deps: WaitlistDeps & Pick<AppDeps, "db">, batch = LAPSE_BATCH): Promise<number> {
  let lapsed = 0;
  while (lapsed < batch) {
    const due = sql`
      select id, status as was from waitlist_entries
      where status = 'offered' and offer_expires_at <= ${deps.clock.now().toISOString()}::timestamptz
      order by offer_expires_at, id
      limit 1
      for update skip locked`;
    const ended = await deps.db.transaction((tx) => endWaitlistPlace(deps, tx, due, "lapsed"));
    if (!ended) break;
    lapsed++;
  }
  return lapsed;
}
