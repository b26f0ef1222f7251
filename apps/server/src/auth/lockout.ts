import { LIMITS } from "@elo/shared";
import { schema, type Database } from "@elo/db";
import { eq, sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/raw";

const WINDOW_MS = LIMITS.loginBlockMinutes * 60_000;
const BLOCK_MS = LIMITS.loginBlockMinutes * 60_000;

/** Minutes until `until`, rounded up (the spec's "Tente novamente em N minutos"). */
export const minutesUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Reserves one password check for `email` before it runs (decision 105), as an upsert returning the
 * row's `failed_count` and `blocked_until`: every attempt adds one to the window's count, and only
 * the attempts numbered up to LIMITS.loginMaxFailures may check the password (`isGranted`); the one
 * that reaches it blocks the e-mail for 15 minutes at once, so attempts arriving together cannot all
 * read "not blocked" first. A window older than 15 minutes, or a block that has ended, starts again
 * at 1. `in_flight` counts the granted checks still running, which a success must not forget.
 * The row lock of the upsert serialises parallel attempts on any number of server processes.
 */
export function reserveAttempt(email: string, now: Date): SQL {
  const max = LIMITS.loginMaxFailures;
  const blocked = sql`(t.blocked_until is not null and t.blocked_until > ${at(now)})`;
  const fresh = sql`(not ${blocked} and (t.window_started_at <= ${at(new Date(now.getTime() - WINDOW_MS))} or t.blocked_until is not null))`;
  const count = sql`(case when ${fresh} then 1 else t.failed_count + 1 end)`;
  const blockEnd = at(new Date(now.getTime() + BLOCK_MS));
  return sql`
    insert into login_throttles as t (email, failed_count, in_flight, window_started_at, blocked_until)
    values (${email}, 1, 1, ${at(now)}, ${max <= 1 ? blockEnd : null})
    on conflict (email) do update set
      failed_count = ${count},
      in_flight = (case when ${fresh} then 1 when ${count} <= ${max} then t.in_flight + 1 else t.in_flight end),
      window_started_at = (case when ${fresh} then ${at(now)} else t.window_started_at end),
      blocked_until = (case when ${blocked} then t.blocked_until when ${count} >= ${max} then ${blockEnd} else null end)
    returning t.failed_count, t.blocked_until`;
}

/** Whether the attempt numbered `count` in its window may check the password. */
export const isGranted = (count: number) => count <= LIMITS.loginMaxFailures;

/** The reservation's outcome: whether the password may be checked, the attempt's number, the block's end. */
export function reservation(row: { failed_count: number | string; blocked_until: string | Date | null }) {
  const attempt = Number(row.failed_count);
  return { granted: isGranted(attempt), attempt, blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null };
}

/** Reserves one password check on its own (`reserveAttempt`), for a check outside the login. */
export async function reservePasswordCheck(db: Database, email: string, now: Date) {
  const [row] = await queryRows<{ failed_count: number; blocked_until: string | Date | null }>(db, reserveAttempt(email, now), { prepare: true });
  return reservation(row!);
}

/** A check that failed is no longer running; it stays counted. */
export const releaseFailedCheck = (email: string): SQL => sql`
  update login_throttles set in_flight = greatest(in_flight - 1, 0) where email = ${email}`;

/**
 * After the right password: the checks already finished are forgotten, and the lock with them; the
 * checks of the same window still running stay counted (when they fail they count as failures).
 */
export const clearFinishedChecks = (email: string): SQL => sql`
  update login_throttles set failed_count = greatest(in_flight - 1, 0), in_flight = greatest(in_flight - 1, 0), blocked_until = null where email = ${email}`;

/** Forgets the failures of an e-mail (after a password reset or an account deletion). */
export async function clearFailures(db: Database, email: string) {
  await db.delete(schema.loginThrottles).where(eq(schema.loginThrottles.email, email));
}

/** Audit trail: every attempt with the browser's user agent. */
export async function recordAttempt(db: Database, email: string, success: boolean, userAgent: string | null, now: Date) {
  await db.insert(schema.loginAttempts).values({ email, success, userAgent: userAgent?.slice(0, 500) ?? null, createdAt: now });
}
