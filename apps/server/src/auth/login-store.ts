import type { ProfileType, Role } from "@elo/shared";
import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/raw";
import { clearFinishedChecks, releaseFailedCheck, reservation, reserveAttempt } from "./lockout";
import type { Session } from "./session";

/** What a login needs before checking the password, from one statement. */
export interface LoginRead {
  /** Whether this attempt may check the password (decision 105). */
  granted: boolean;
  /** The attempt's number in the lockout window. */
  attempt: number;
  /** The end of the e-mail's block, once the window's 5th attempt has set one. */
  blockedUntil: Date | null;
  user: { id: string; passwordHash: string; profileType: ProfileType | null; isAdmin: boolean } | null;
}

/**
 * `set_config(...)` evaluated inside a login's statement: its implicit transaction commits without
 * waiting for the WAL to reach the disk (PostgreSQL's asynchronous commit). The flush was most of a
 * login's time around argon2 (1-7 ms per commit on this VM, two commits per login: decision 151).
 * Other sessions see the commit at once, so the row locks that serialise the lockout work as before;
 * what a crash of PostgreSQL (not of the app) may lose is the last fraction of a second of these
 * writes: an attempt's reservation or audit row, or a new session (its user signs in again).
 */
const noFlush = sql`set_config('synchronous_commit', 'off', true)`;

/**
 * Reserves the attempt in the e-mail's lockout window and reads its user (hash, profile type, admin
 * role), in one round trip (decisions 089 and 105).
 */
export async function reserveLogin(db: Database, email: string, now: Date): Promise<LoginRead> {
  const [row] = await queryRows<{ failed_count: number; blocked_until: string | Date | null; id: string | null; password_hash: string | null; profile_type: ProfileType | null; roles: Role[] | null }>(
    db,
    sql`
    with attempt as (${reserveAttempt(email, now)})
    select
      a.failed_count, a.blocked_until,
      u.id, u.password_hash, p.profile_type,
      (select array_agg(r.role::text) from user_roles r where r.user_id = u.id) as roles,
      ${noFlush} as no_flush
    from attempt a
    left join users u on u.email = ${email}
    left join profiles p on p.user_id = u.id`,
    { prepare: true },
  );
  const read = reservation(row!);
  if (!row!.id || !row!.password_hash) return { ...read, user: null };
  return { ...read, user: { id: row!.id, passwordHash: row!.password_hash, profileType: row!.profile_type, isAdmin: (row!.roles ?? []).includes("admin") } };
}

/** The audit row of an attempt; its statement commits without waiting for the flush (`noFlush`). */
const auditRow = (email: string, success: boolean, userAgent: string | null, now: Date) =>
  sql`insert into login_attempts (email, success, user_agent, created_at)
    select ${email}::text, ${success}::boolean, ${userAgent?.slice(0, 500) ?? null}::text, ${now.toISOString()}::timestamptz where ${noFlush} = 'off'`;

/** A wrong password's writes in one statement: the audit row, and its check no longer running. */
export async function recordFailedLogin(db: Database, email: string, userAgent: string | null, now: Date) {
  await queryRows(db, sql`with attempt as (${auditRow(email, false, userAgent, now)}) ${releaseFailedCheck(email)}`, { prepare: true });
}

/** A successful login's writes in one statement: the audit row, the finished checks forgotten, the session. */
export async function recordSuccessfulLogin(db: Database, email: string, session: Session, userAgent: string | null, now: Date) {
  await queryRows(
    db,
    sql`
    with attempt as (${auditRow(email, true, userAgent, now)}),
    cleared as (${clearFinishedChecks(email)})
    insert into sessions (id, user_id, expires_at, created_at, user_agent)
    values (${session.id}, ${session.userId}::uuid, ${session.expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${userAgent?.slice(0, 500) ?? null})`,
    { prepare: true },
  );
}
