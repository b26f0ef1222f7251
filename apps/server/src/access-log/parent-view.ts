import type { Database } from "@elo/db";
import { ACCESS_PURPOSE_LABELS, accessLogMessages as m, formatDateTime, type AccessPurpose } from "@elo/shared";
import { sql } from "drizzle-orm";
import type { Config } from "../config";
import { queryRows } from "../db/raw";

/** "12/03/2026 às 14:05" in São Paulo time, or null. */
const when = (d: Date | string | null) => (d ? formatDateTime(d) : null);
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

type AccessRow = {
  kind: "proof" | "voucher" | "listing";
  at: Date | string;
  action: string;
  outcome: string | null;
  organization_name: string | null;
  is_admin: boolean;
  viewer_role: string | null;
  viewer_first_name: string | null;
  purpose: string | null;
  ticket: string | null;
  via_api_token: boolean;
  student_name: string | null;
  benefit: string | null;
};

function actionLabel(r: AccessRow) {
  if (r.kind === "listing") return m.actionAdminParentsList;
  if (r.kind === "voucher") return { list: m.actionDeskList, confirm: m.actionDeskConfirm, cancel: m.actionDeskCancel }[r.action] ?? m.actionDeskLookup;
  if (r.action === "decision") return r.outcome === "verificado" ? m.actionDecisionVerified : r.outcome === "recusado" ? m.actionDecisionRefused : m.actionDecision;
  return m.actionOpening;
}

/**
 * 'Quem viu os dados do meu filho' (issue 27): every opening of and decision on the parent's proofs,
 * every desk lookup of their vouchers and every listing that showed them (decision 192), newest
 * first; the parent's own openings are left out.
 * Names and roles are those recorded at the moment of access.
 */
export async function whoSaw(db: Database, userId: string) {
  const rows = await queryRows<AccessRow>(
    db,
    sql`
    select 'proof' as kind, v.viewed_at as at, v.action, v.outcome, v.organization_name, v.viewer_school_id is null as is_admin,
           v.viewer_role, v.viewer_first_name, v.purpose, v.ticket, v.via_api_token, p.student_name, null::text as benefit
    from enrollment_proof_views v join enrollment_proofs p on p.id = v.proof_id
    where p.user_id = ${userId} and v.viewer_id is distinct from ${userId}
    union all
    select 'voucher', d.viewed_at, d.action, null, d.organization_name, false, d.viewer_role, d.viewer_first_name, null, null, d.via_api_token,
           null, b.class_name
    from voucher_desk_views d join discount_transactions t on t.id = d.voucher_id join discounts b on b.id = t.discount_id
    where d.holder_id = ${userId} and d.viewer_id is distinct from ${userId}
    union all
    select 'listing', l.viewed_at, l.listing, null, l.organization_name, l.viewer_school_id is null, l.viewer_role, l.viewer_first_name, l.purpose, l.ticket, l.via_api_token,
           null, null
    from parent_listing_views l
    where l.holder_id = ${userId} and l.viewer_id is distinct from ${userId}
    order by 2 desc
    limit 1000`,
  );
  return rows.map((r) => ({
    subject: r.kind,
    at: iso(r.at)!,
    when: when(r.at)!,
    organization: r.is_admin ? m.organizationAdmin : (r.organization_name ?? "—"),
    role: r.viewer_role ?? (r.is_admin ? m.roleAdmin : m.roleStaff),
    firstName: r.viewer_first_name,
    action: actionLabel(r),
    /** The student the proof names, or the benefit of the voucher. */
    about: r.kind === "proof" ? r.student_name : r.kind === "voucher" ? r.benefit : null,
    purpose:
      r.kind === "voucher"
        ? null
        : r.purpose
          ? `${ACCESS_PURPOSE_LABELS[r.purpose as AccessPurpose] ?? r.purpose}${r.ticket ? ` ${r.ticket}` : ""}`
          : m.purposeNotStated,
    viaApiToken: r.via_api_token,
  }));
}

type ProofShare = { school_name: string; student_name: string | null; submitted_at: Date | string; decided_at: Date | string | null; replaced_at: Date | string | null; opened: boolean };
type VoucherShare = {
  school_name: string;
  benefit: string;
  discount_percentage: string | number;
  claimed_at: Date | string;
  ended_at: Date | string | null;
  status: string;
  desk_seen_at: Date | string | null;
};

/** The operators that process data on the platform's behalf, from this installation's configuration (named by kind). */
export function operatorsOf(config: Pick<Config, "SMTP_URL" | "s3">) {
  return [
    { kind: "email" as const, name: m.operatorMail, provider: config.SMTP_URL ? m.operatorMailSmtp : m.operatorMailLog, what: m.operatorMailWhat },
    { kind: "storage" as const, name: m.operatorStorage, provider: config.s3 ? m.operatorStorageS3 : m.operatorStorageDisk, what: m.operatorStorageWhat },
    { kind: "hosting" as const, name: m.operatorHosting, provider: m.operatorHostingText, what: m.operatorHostingWhat },
  ];
}

/**
 * 'Com quem seus dados foram compartilhados' (issue 27), made from the data: the school each proof
 * named (sent, decided, replaced), each institution whose benefit the parent claimed (the voucher
 * reached its desk; the row stays after the voucher ends, with its dates), and the operators.
 */
export async function sharedWith(db: Database, config: Pick<Config, "SMTP_URL" | "s3">, userId: string) {
  const [proofs, vouchers] = await Promise.all([
    queryRows<ProofShare>(
      db,
      sql`
      select s.name as school_name, p.student_name, p.submitted_at, p.decided_at, p.replaced_at,
             exists (select 1 from enrollment_proof_views v where v.proof_id = p.id and v.viewer_school_id is not null) as opened
      from enrollment_proofs p join schools s on s.id = p.school_id
      where p.user_id = ${userId}
        -- The school received the proof when its staff opened or decided it (an administrator's work is not a share).
        and (exists (select 1 from enrollment_proof_views v where v.proof_id = p.id and v.viewer_school_id is not null)
             or (p.decided_at is not null and not p.decided_by_admin))
      order by p.submitted_at desc`,
    ),
    queryRows<VoucherShare>(
      db,
      sql`
      select s.name as school_name, d.class_name as benefit, d.discount_percentage, t.claimed_at, coalesce(t.redeemed_at, t.ended_at) as ended_at, t.status,
             (select max(v.viewed_at) from voucher_desk_views v where v.voucher_id = t.id and v.holder_id = ${userId}) as desk_seen_at
      from discount_transactions t join discounts d on d.id = t.discount_id join schools s on s.id = t.school_id
      where t.user_id = ${userId}
      order by t.claimed_at desc`,
    ),
  ]);
  return {
    schools: [
      ...proofs.map((p) => ({
        kind: "proof" as const,
        organization: p.school_name,
        reason: m.sharedSchoolProof,
        about: p.student_name,
        since: when(p.submitted_at)!,
        until: when(p.replaced_at),
        decidedAt: when(p.decided_at),
        opened: p.opened,
        what: m.proofSaw,
      })),
      ...vouchers.map((v) => ({
        kind: "voucher" as const,
        organization: v.school_name,
        reason: m.sharedSchoolVoucher,
        about: `${v.benefit} (${Number(v.discount_percentage)}% de desconto)`,
        since: when(v.claimed_at)!,
        until: when(v.ended_at),
        decidedAt: null,
        opened: v.desk_seen_at !== null,
        deskSeenAt: when(v.desk_seen_at),
        what: m.voucherSaw,
      })),
    ],
    operators: operatorsOf(config),
  };
}
