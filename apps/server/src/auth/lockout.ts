import { LIMITS } from "@elo/shared";
import { schema, type Database } from "@elo/db";
import { eq, sql } from "drizzle-orm";

const WINDOW_MS = LIMITS.loginBlockMinutes * 60_000;
const BLOCK_MS = LIMITS.loginBlockMinutes * 60_000;

/** Minutes until `until`, rounded up (the spec's "Tente novamente em N minutos"). */
export const minutesUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

/**
 * Counts one failed attempt in a single statement (so parallel failures all count): a window older
 * than 15 minutes, or a block that has ended, starts a fresh count; the 5th failure in the window
 * blocks the e-mail for 15 minutes. Returns the count in the window and the block end, if any.
 */
export async function recordFailure(db: Database, email: string, now: Date) {
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  const blockEnd = new Date(now.getTime() + BLOCK_MS);
  const t = schema.loginThrottles;
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const fresh = sql`(${t.windowStartedAt} <= ${at(windowStart)} or (${t.blockedUntil} is not null and ${t.blockedUntil} <= ${at(now)}))`;
  const nextCount = sql`(case when ${fresh} then 1 else ${t.failedCount} + 1 end)`;
  const [row] = await db
    .insert(t)
    .values({ email, failedCount: 1, windowStartedAt: now, blockedUntil: LIMITS.loginMaxFailures <= 1 ? blockEnd : null })
    .onConflictDoUpdate({
      target: t.email,
      set: {
        failedCount: nextCount,
        windowStartedAt: sql`(case when ${fresh} then ${at(now)} else ${t.windowStartedAt} end)`,
        blockedUntil: sql`(case
          when not ${fresh} and ${t.blockedUntil} > ${at(now)} then ${t.blockedUntil}
          when ${nextCount} >= ${LIMITS.loginMaxFailures} then ${at(blockEnd)}
          else null end)`,
      },
    })
    .returning({ failedCount: t.failedCount, blockedUntil: t.blockedUntil });
  return row!;
}

/** Forgets the failures of an e-mail (after a successful login or a password reset). */
export async function clearFailures(db: Database, email: string) {
  await db.delete(schema.loginThrottles).where(eq(schema.loginThrottles.email, email));
}

/** Audit trail: every attempt with the browser's user agent. */
export async function recordAttempt(db: Database, email: string, success: boolean, userAgent: string | null, now: Date) {
  await db.insert(schema.loginAttempts).values({ email, success, userAgent: userAgent?.slice(0, 500) ?? null, createdAt: now });
}
