import { schema, type Database } from "@elo/db";
import { eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "../db/raw";
import type { AppDeps } from "../deps";
import { endOfFebruary, saoPauloDay } from "../lib/calendar";
import { enqueueTemplate, enrollmentRenewalEmail } from "../mail/templates";
import type { JobOutcome } from "./job-runs";

/** Parents per transaction: short transactions; all of one parent's proofs go in the same e-mail. */
const BATCH = 200;
/** How often the job looks; it does something only in January, and each verification is asked about once. */
export const RENEWAL_CHECK_MS = 60 * 60 * 1000;

type Deps = Pick<AppDeps, "db" | "clock" | "mailer" | "config" | "logger">;

/**
 * Issue 21, part 4: in January (São Paulo calendar), every parent whose verification ends this
 * February gets one e-mail asking for the new school year's proof. Each live verified proof is
 * marked `renewal_requested_at` by a conditional UPDATE in the same transaction that queues the
 * e-mail, so several servers running the job never send twice. Rows are taken with SKIP LOCKED,
 * the parent's account row shared first (the lock order of an account deletion: decision 127).
 * Returns how many e-mails were queued.
 */
export async function sendRenewalRequests(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const today = saoPauloDay(now);
  if (today.slice(5, 7) !== "01") return 0;
  const year = Number(today.slice(0, 4));
  const until = endOfFebruary(year);
  const due = sql`p.status = 'verificado' and p.replaced_at is null and p.renewal_requested_at is null
    and p.verified_until >= ${today}::date and p.verified_until <= ${until}::date`;
  let sent = 0;
  for (;;) {
    const queued = await deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Database;
      const marked = await queryRows<{ user_id: string; school_id: string }>(
        tx,
        sql`
        with people as (
          select distinct p.user_id from enrollment_proofs p where ${due}
          order by p.user_id limit ${BATCH}
        ),
        due as (
          select p.id from enrollment_proofs p join users u on u.id = p.user_id join people on people.user_id = p.user_id
          where ${due}
          for share of u skip locked
          for update of p skip locked
        )
        update enrollment_proofs p set renewal_requested_at = ${now.toISOString()}::timestamptz
        from due where p.id = due.id
        returning p.user_id, p.school_id`,
      );
      if (marked.length === 0) return 0;
      const people = await tx
        .select({ id: schema.users.id, email: schema.users.email, name: schema.profiles.fullName })
        .from(schema.users)
        .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
        .where(inArray(schema.users.id, [...new Set(marked.map((m) => m.user_id))]));
      const schools = await tx
        .select({ id: schema.schools.id, name: schema.schools.name })
        .from(schema.schools)
        .where(inArray(schema.schools.id, [...new Set(marked.map((m) => m.school_id))]));
      const schoolName = new Map(schools.map((s) => [s.id, s.name]));
      for (const person of people) {
        const schoolNames = [...new Set(marked.filter((m) => m.user_id === person.id).map((m) => schoolName.get(m.school_id) ?? ""))].filter(Boolean);
        await enqueueTemplate(deps, tx, enrollmentRenewalEmail, person.email, { userId: person.id, aboutUserId: null }, {
          parentName: person.name,
          year,
          schoolNames,
          verifiedUntil: until,
          profileUrl: `${deps.config.publicOrigin}/meus-dados`,
        });
      }
      return people.length;
    });
    sent += queued;
    if (queued < BATCH) break;
  }
  return sent;
}

/** Runs the job now and every `intervalMs`; returns the function that stops it (and waits for a running pass). */
export function startRenewalRequests(deps: Deps, intervalMs = RENEWAL_CHECK_MS, record?: (job: string, outcome: JobOutcome) => Promise<void>) {
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = running.then(() => sendRenewalRequests(deps)).then(
      async (n) => {
        if (n > 0) deps.logger.info({ emails: n }, "renewal requests queued");
        await record?.("renewal-requests", { ok: true, done: n });
      },
      async (error) => {
        deps.logger.warn({ err: error }, "renewal requests failed; will retry");
        await record?.("renewal-requests", { ok: false, error });
      },
    );
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
