import { waitlistMessages as w, type WaitlistBenefitInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { AppError } from "../../trpc/errors";
import { alreadyClaimed, incompleteProfile, proofMissing, unavailable } from "../claim/errors";
import { admittedBy } from "../marketplace/visibility";
import type { ParentContext } from "./context";

interface JoinRow {
  completed: boolean | null;
  proof: boolean | null;
  free: number | null;
  claimed: boolean;
  entry_id: string | null;
}

/**
 * waitlist.join: a place at the back of a sold-out benefit's line (decision 123). Only a benefit the
 * marketplace shows this parent, that they have not claimed, and that has no free slot: with a slot
 * free they should claim it instead. The benefit row is locked like a claim locks it, so joining
 * and a slot being returned are ordered: a parent who joins after a slot was offered waits for
 * the next one; one who joins before is in line for it.
 */
export async function joinWaitlist({ ctx, input }: { ctx: ParentContext; input: WaitlistBenefitInput }) {
  const userId = ctx.user.id;
  return ctx.db.transaction(async (tx) => {
    const [row] = await queryRows<JoinRow>(
      tx,
      sql`
      with p as (
        select p.school_id, p.profile_completed and p.school_id is not null as completed, p.enrollment_proof_submitted as proof
        from profiles p where p.user_id = ${userId} and p.profile_type = 'parent'
      ),
      benefit as (
        select d.id, d.number_of_students as free
        from discounts d
        join schools s on s.id = d.school_id
        join p on true
        join schools ms on ms.id = p.school_id
        where d.id = ${input.discountId} and d.status = 'active' and p.completed and p.proof and ${admittedBy(userId)}
        for update of d
      ),
      claimed as (
        select exists (select 1 from claimed_discounts c where c.user_id = ${userId} and c.discount_id = ${input.discountId}) as yes
      ),
      joined as (
        insert into waitlist_entries (discount_id, user_id, created_at)
        select b.id, ${userId}, ${ctx.clock.now().toISOString()}::timestamptz from benefit b, claimed
        where b.free = 0 and not claimed.yes
        on conflict (discount_id, user_id) where status in ('waiting', 'offered') do nothing
        returning id
      )
      select (select completed from p) as completed, (select proof from p) as proof, (select free from benefit) as free,
        (select yes from claimed) as claimed, (select id from joined) as entry_id`,
    );
    if (!row?.completed) throw incompleteProfile();
    if (!row.proof) throw proofMissing();
    if (row.claimed) throw alreadyClaimed();
    if (row.free === null) throw unavailable();
    if (row.free > 0) throw new AppError("CONFLICT", { title: w.joinError, description: w.stillSlots });
    if (!row.entry_id) throw new AppError("CONFLICT", { title: w.joinError, description: w.alreadyWaiting });
    return { discountId: input.discountId, status: "waiting" as const };
  });
}
