import type { Database } from "@elo/db";
import { DISCOUNT_VALIDITIES, LIMITS, type DiscountValidity } from "@elo/shared";
import { sql, type SQL } from "drizzle-orm";
import { buildQuery, canRunBuilt, pgConstraint, queryBuilt, queryRows, type Bound, type BuiltQuery } from "../../db/raw";
import { saoPauloDay, saoPauloDayPlus, voucherValidUntil } from "../../lib/calendar";
import { voucherEmail, type VoucherMailData } from "../../mail/templates";
import type { Clock } from "../../lib/clock";
import { pgErrorCode } from "../../trpc/errors";
import { admittedBy } from "../marketplace/visibility";
import { mainEnrollmentVerified } from "../verification/verified";
import { alreadyClaimed, incompleteProfile, proofMissing, transactionFailed, unavailable } from "./errors";
import { generateVoucherCode } from "./voucher";

const VOUCHER_INDEX = "discount_transactions_voucher_uq";

export interface ClaimedBenefit {
  transactionId: string;
  /** The voucher e-mail, queued by the same statement, not rendered yet. */
  outboxId: string;
  voucherCode: string;
  validUntil: string;
  claimedAt: Date;
  discount: {
    className: string;
    discountPercentage: number;
    monthlyFee: number;
    discountedFee: number;
    discountValidity: DiscountValidity;
    schoolName: string;
  };
  /** The benefit's hold and the voucher's last day under it (decision 121); null without one. */
  hold: { days: number; presentBy: string } | null;
  parentName: string | null;
}

interface ClaimRow {
  /** The parent profile (null when the caller has none), read in the same statement. */
  profile: { full_name: string | null; filled: boolean; completed: boolean; proof: boolean } | null;
  slot: {
    school_id: string;
    class_name: string;
    discount_percentage: string | number;
    monthly_fee: string | number;
    discounted_fee: string | number;
    discount_validity: DiscountValidity;
    valid_until: string;
    school_name: string;
    hold_days: number | null;
  } | null;
  transaction_id: string | null;
  outbox_id: string | null;
  already: boolean;
}

/**
 * The voucher e-mail's data, built by the claim statement from its own CTEs so that the e-mail is
 * queued with the claim (docs/decisions/102); every field of VoucherMailData, checked by the compiler.
 */
function voucherMailData(voucherCode: Bound<string>, at: Bound<string>) {
  const fields = {
    parentName: sql`p.full_name`,
    voucherCode: sql`${voucherCode}::text`,
    transactionId: sql`voucher.id`,
    schoolName: sql`slot.school_name`,
    className: sql`slot.class_name`,
    discountPercentage: sql`slot.discount_percentage`,
    monthlyFee: sql`slot.monthly_fee`,
    discountedFee: sql`slot.discounted_fee`,
    discountValidity: sql`slot.discount_validity`,
    validUntil: sql`slot.valid_until`,
    // The hold's last day on the Brasília calendar, as saoPauloDayPlus gives it (decision 121).
    hold: sql`(case when slot.hold_days is null then null else jsonb_build_object('days', slot.hold_days,
      'presentBy', to_char((${at}::timestamptz at time zone 'America/Sao_Paulo')::date + slot.hold_days, 'YYYY-MM-DD')) end)`,
  } satisfies Record<keyof VoucherMailData, SQL>;
  return sql`jsonb_build_object(${sql.join(
    Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
    sql`, `,
  )})`;
}

/** The claim statement's values: given per request, or the placeholders of the statement built once. */
type ClaimValues = {
  userId: Bound<string>;
  discountId: Bound<string>;
  /** The claim's instant (ISO), the benefit's update, the key, the voucher and the e-mail. */
  at: Bound<string>;
  /** The voucher's end date per validity text (JSON), from which the statement picks the benefit's own. */
  validUntil: Bound<string>;
  /** The Brasília calendar day, for the verified-enrollment rule. */
  today: Bound<string>;
  voucherCode: Bound<string>;
};

/** The claim statement (decision 087), with its values or the placeholders of the built one. */
function claimStatement(v: ClaimValues): SQL {
  return sql`
    with p as (
      select p.full_name, p.school_id, p.profile_completed as completed, p.enrollment_proof_submitted as proof, u.email,
        (nullif(p.full_name, '') is not null and nullif(p.phone, '') is not null and nullif(p.relationship_type, '') is not null
          and nullif(p.student_name, '') is not null and p.school_id is not null) as filled
      from profiles p join users u on u.id = p.user_id where p.user_id = ${v.userId} and p.profile_type = 'parent'
    ),
    slot as (
      update discounts d
      set number_of_students = d.number_of_students - 1, updated_at = ${v.at}::timestamptz
      from p, schools s, schools ms
      where d.id = ${v.discountId}
        and d.number_of_students > 0
        and d.status = 'active'
        and p.completed and p.filled and p.proof
        and s.id = d.school_id
        and ms.id = p.school_id
        and ${admittedBy(v.userId)}
        and (not d.requires_verified_enrollment or ${mainEnrollmentVerified(v.userId, v.today)})
      returning d.id, d.school_id, d.class_name, d.discount_percentage, d.monthly_fee, d.discounted_fee,
        d.discount_validity, (${v.validUntil}::jsonb ->> d.discount_validity::text) as valid_until, s.name as school_name, d.hold_days
    ),
    claim_key as (
      insert into claimed_discounts (user_id, discount_id, created_at)
      select ${v.userId}, slot.id, ${v.at}::timestamptz from slot
      returning discount_id
    ),
    voucher as (
      insert into discount_transactions (user_id, discount_id, school_id, voucher_code, claimed_at, valid_until)
      select ${v.userId}, slot.id, slot.school_id, ${v.voucherCode}, ${v.at}::timestamptz, slot.valid_until::date from slot
      returning id
    ),
    mail as (
      insert into email_outbox (kind, to_address, user_id, data, created_at, next_attempt_at)
      select ${voucherEmail.kind}, p.email, ${v.userId}, ${voucherMailData(v.voucherCode, v.at)}, ${v.at}::timestamptz, ${v.at}::timestamptz from p, slot, voucher
      returning id
    )
    select
      (select json_build_object('full_name', p.full_name, 'filled', p.filled, 'completed', p.completed, 'proof', p.proof) from p) as profile,
      (select json_build_object(
        'school_id', slot.school_id, 'class_name', slot.class_name, 'discount_percentage', slot.discount_percentage,
        'monthly_fee', slot.monthly_fee, 'discounted_fee', slot.discounted_fee, 'discount_validity', slot.discount_validity,
        'valid_until', slot.valid_until, 'school_name', slot.school_name, 'hold_days', slot.hold_days
      ) from slot) as slot,
      (select id from voucher) as transaction_id,
      (select id from mail) as outbox_id,
      exists (select 1 from claimed_discounts c where c.user_id = ${v.userId} and c.discount_id = ${v.discountId}) as already`;
}

/**
 * The claim statement built once (decision 219): its text does not depend on the request, so each
 * claim on postgres.js only fills its values in (`queryBuilt`, decision 213); a transaction or
 * PGlite builds it with its values, as before.
 */
let builtClaim: BuiltQuery | null = null;
const claimBuilt = () =>
  (builtClaim ??= buildQuery(
    claimStatement({
      userId: sql.placeholder("userId"),
      discountId: sql.placeholder("discountId"),
      at: sql.placeholder("at"),
      validUntil: sql.placeholder("validUntil"),
      today: sql.placeholder("today"),
      voucherCode: sql.placeholder("voucherCode"),
    }),
  ));

/** The claim's row, from the statement built once when `db` can run it, else built with the values. */
function runClaim(db: Database, values: ClaimValues): Promise<ClaimRow[]> {
  return canRunBuilt(db) ? queryBuilt<ClaimRow>(db, claimBuilt(), values) : queryRows<ClaimRow>(db, claimStatement(values), { prepare: true });
}

/** The voucher's end date per validity text (JSON) for one Brasília day: the same all day, so made once a day. */
let validUntilOfDay: { day: string; json: string } | null = null;
function validUntilByValidity(today: string, claimedAt: Date): string {
  if (validUntilOfDay?.day !== today) {
    validUntilOfDay = { day: today, json: JSON.stringify(Object.fromEntries(DISCOUNT_VALIDITIES.map((v) => [v, voucherValidUntil(v, claimedAt)]))) };
  }
  return validUntilOfDay.json;
}

/**
 * The claim of spec 1 §4 as ONE statement (docs/decisions/087): the profile check, a conditional
 * UPDATE that takes the slot only while slots remain and every marketplace rule admits this parent,
 * then the (user, benefit) key and the voucher, both inserted from the UPDATE's RETURNING so they
 * can only follow it. Concurrent claims queue on the benefit's row lock; a duplicate fails on the
 * key (23505) and the whole statement, slot included, is undone. A voucher collision (23505 on its
 * unique index) also undoes everything, and the statement is simply run again with a new code.
 * The voucher e-mail is queued by the same statement (its data only; the caller renders it).
 */
export async function claimDiscount(
  deps: { db: Database; clock: Clock },
  userId: string,
  discountId: string,
  opts: { nextVoucher?: () => string } = {},
): Promise<ClaimedBenefit> {
  const nextVoucher = opts.nextVoucher ?? generateVoucherCode;
  const claimedAt = deps.clock.now();
  const at = claimedAt.toISOString();
  const today = saoPauloDay(claimedAt);
  // The voucher's end date for each validity text, so the statement can pick the benefit's own.
  const validUntil = validUntilByValidity(today, claimedAt);

  for (let attempt = 0; attempt <= LIMITS.voucherRetries; attempt++) {
    const voucherCode = nextVoucher();
    let row: ClaimRow | undefined;
    try {
      [row] = await runClaim(deps.db, { userId, discountId, at, validUntil, today, voucherCode });
    } catch (error) {
      if (pgErrorCode(error) !== "23505") throw error;
      if (pgConstraint(error) === VOUCHER_INDEX) continue;
      throw alreadyClaimed();
    }
    const profile = row?.profile;
    if (!profile || !profile.completed || !profile.filled) throw incompleteProfile();
    if (!profile.proof) throw proofMissing();
    const slot = row?.slot;
    if (!slot) throw row?.already ? alreadyClaimed() : unavailable();
    if (!row?.transaction_id || !row.outbox_id) throw transactionFailed();
    return {
      transactionId: row.transaction_id,
      outboxId: row.outbox_id,
      voucherCode,
      validUntil: slot.valid_until,
      claimedAt,
      hold: slot.hold_days ? { days: slot.hold_days, presentBy: saoPauloDayPlus(claimedAt, slot.hold_days) } : null,
      parentName: profile.full_name,
      discount: {
        className: slot.class_name,
        discountPercentage: Number(slot.discount_percentage),
        monthlyFee: Number(slot.monthly_fee),
        discountedFee: Number(slot.discounted_fee),
        discountValidity: slot.discount_validity,
        schoolName: slot.school_name,
      },
    };
  }
  throw transactionFailed();
}
