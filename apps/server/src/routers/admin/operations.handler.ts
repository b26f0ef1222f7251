import { schema } from "@elo/db";
import { operationsMessages as m, type OutboxIdInput } from "@elo/shared";
import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { KNOWN_JOBS } from "../../jobs/job-runs";
import { flushOpsCounts, sharedCountSince } from "../../lib/ops-counts";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";

/** How many failing e-mails the page lists (newest first). */
const FAILED_LIST = 50;

/** `m***@dominio.com.br`: enough for the admin to recognise a message, no more (the page lists many). */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${address[0]}***${address.slice(at)}`;
}

/**
 * 'Operação' (admin): the outbox (pending, failing with the error, oldest pending age, a 24-hour
 * chart), each scheduled job's last run, success and error, the last verified backup, and counts
 * of now (locked logins, refused logins and every replica's rate-limit refusals in the last hour),
 * and every replica's job runs and refusals per hour (ops_counts, decision 188).
 * A failing e-mail is one whose last attempt failed (pending with an error, to be retried) or that
 * was given up (status failed).
 */
export async function operationsOverview({ ctx }: { ctx: Context }) {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const o = schema.emailOutbox;
  const failing = or(eq(o.status, "failed"), and(eq(o.status, "pending"), isNotNull(o.lastError)));

  const [counts] = await queryRows<{ pending: number; failing: number; sent: number; oldest: Date | string | null }>(
    ctx.db,
    sql`select count(*) filter (where status = 'pending')::int as pending,
               count(*) filter (where status = 'failed' or (status = 'pending' and last_error is not null))::int as failing,
               count(*) filter (where status = 'sent' and sent_at > ${nowIso}::timestamptz - interval '24 hours')::int as sent,
               min(created_at) filter (where status = 'pending') as oldest
        from email_outbox`,
  );
  const failed = await ctx.db
    .select({ id: o.id, kind: o.kind, subject: o.subject, to: o.to, status: o.status, lastError: o.lastError, attempts: o.attempts, createdAt: o.createdAt })
    .from(o)
    .where(failing)
    .orderBy(sql`${o.createdAt} desc`)
    .limit(FAILED_LIST);

  // The last 24 hours, hour by hour (São Paulo has no DST: UTC hours are fine for a chart).
  // This process's buffered refusals first, so that what it just refused shows (decision 188).
  await flushOpsCounts(ctx.db, now.getTime()).catch(() => {});
  const hours = await queryRows<{ hour: Date | string; queued: number; sent: number; job_runs: number; job_failures: number; refusals: number; retries: number; given_up: number }>(
    ctx.db,
    sql`with h as (select generate_series(date_trunc('hour', ${nowIso}::timestamptz) - interval '23 hours', date_trunc('hour', ${nowIso}::timestamptz), interval '1 hour') as hour)
        select h.hour,
               (select count(*)::int from email_outbox e where e.created_at >= h.hour and e.created_at < h.hour + interval '1 hour') as queued,
               (select count(*)::int from email_outbox e where e.sent_at >= h.hour and e.sent_at < h.hour + interval '1 hour') as sent,
               (select coalesce(sum(n), 0)::int from ops_counts c where c.name = 'job_run' and c.minute >= h.hour and c.minute < h.hour + interval '1 hour') as job_runs,
               (select coalesce(sum(n), 0)::int from ops_counts c where c.name = 'job_failure' and c.minute >= h.hour and c.minute < h.hour + interval '1 hour') as job_failures,
               (select coalesce(sum(n), 0)::int from ops_counts c where c.name = 'rate_limit_refusal' and c.minute >= h.hour and c.minute < h.hour + interval '1 hour') as refusals,
               (select coalesce(sum(n), 0)::int from ops_counts c where c.name = 'outbox_failure' and c.label like '%:retry' and c.minute >= h.hour and c.minute < h.hour + interval '1 hour') as retries,
               (select coalesce(sum(n), 0)::int from ops_counts c where c.name = 'outbox_failure' and c.label like '%:given_up' and c.minute >= h.hour and c.minute < h.hour + interval '1 hour') as given_up
        from h order by h.hour`,
  );

  const jobRows = await ctx.db.select().from(schema.jobRuns);
  const byName = new Map(jobRows.map((j) => [j.job, j]));
  const names = [...KNOWN_JOBS, ...jobRows.map((j) => j.job).filter((n) => !(KNOWN_JOBS as readonly string[]).includes(n))];
  const jobs = names.map((job) => {
    const j = byName.get(job);
    return {
      job,
      label: m.jobNames[job] ?? job,
      lastRunAt: j?.lastRunAt ?? null,
      lastSuccessAt: j?.lastSuccessAt ?? null,
      lastErrorAt: j?.lastErrorAt ?? null,
      lastError: j?.lastError ?? null,
      runs: j?.runs ?? 0,
      failures: j?.failures ?? 0,
    };
  });
  const backupRow = byName.get("backup");

  const [logins] = await queryRows<{ locked: number; refused: number }>(
    ctx.db,
    sql`select (select count(*)::int from login_throttles where blocked_until > ${nowIso}::timestamptz) as locked,
               (select count(*)::int from login_attempts where not success and created_at > ${nowIso}::timestamptz - interval '1 hour') as refused`,
  );

  return {
    smtpEnabled: ctx.mailer.smtpEnabled,
    outbox: {
      pending: counts?.pending ?? 0,
      failing: counts?.failing ?? 0,
      sentLastDay: counts?.sent ?? 0,
      oldestPendingSeconds: counts?.oldest ? Math.max(0, Math.round((now.getTime() - new Date(counts.oldest).getTime()) / 1000)) : null,
      failed: failed.map((f) => ({ ...f, to: maskAddress(f.to) })),
      hours: hours.map((h) => ({ hour: new Date(h.hour).toISOString(), queued: Number(h.queued), sent: Number(h.sent) })),
    },
    /** Every replica's job runs and failures, rate-limit refusals, and outbox attempts failed (to retry, given up) per hour, the last 24 hours. */
    activity: {
      hours: hours.map((h) => ({ hour: new Date(h.hour).toISOString(), jobRuns: Number(h.job_runs), jobFailures: Number(h.job_failures), refusals: Number(h.refusals), outboxRetries: Number(h.retries), outboxGivenUp: Number(h.given_up) })),
    },
    jobs,
    backup: backupRow
      ? { lastSuccessAt: backupRow.lastSuccessAt, files: backupRow.lastDone, lastErrorAt: backupRow.lastErrorAt, lastError: backupRow.lastError }
      : null,
    now: {
      lockedLogins: logins?.locked ?? 0,
      refusedLoginsLastHour: logins?.refused ?? 0,
      rateLimitRefusalsLastHour: await sharedCountSince(ctx.db, "rate_limit_refusal", new Date(now.getTime() - 3600_000)),
    },
  };
}

/**
 * 'Reenviar': a failing e-mail goes back to the queue, due now, and the sender is woken. One
 * conditional UPDATE that also clears the error, so a double click (or two admins) queues it once:
 * the second finds no failing row and is told so, and the sender's lease keeps it from two sends.
 * The attempts start again from zero: a given-up e-mail gets its full retries (decision 187).
 */
export async function resendEmail({ ctx, input }: { ctx: Context; input: OutboxIdInput }) {
  const o = schema.emailOutbox;
  const [row] = await ctx.db
    .update(o)
    .set({ status: "pending", lastError: null, attempts: 0, nextAttemptAt: ctx.clock.now() })
    .where(and(eq(o.id, input.id), or(eq(o.status, "failed"), and(eq(o.status, "pending"), isNotNull(o.lastError)))))
    .returning({ id: o.id });
  if (!row) {
    const [exists] = await ctx.db.select({ status: o.status }).from(o).where(eq(o.id, input.id));
    if (!exists) throw new AppError("NOT_FOUND", m.emailNotFound);
    return { queued: false as const, message: m.resendAlready };
  }
  ctx.afterAnswer("resend e-mail", () => ctx.mailer.flush());
  return { queued: true as const, message: m.resent };
}
