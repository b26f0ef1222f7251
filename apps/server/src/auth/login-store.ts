import type { ProfileType, Role } from "@elo/shared";
import type { Database } from "@elo/db";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/raw";
import type { Session } from "./session";

/** What a login needs to know before checking the password, read in one statement. */
export interface LoginRead {
  blockedUntil: Date | null;
  user: { id: string; passwordHash: string; profileType: ProfileType | null; isAdmin: boolean } | null;
}

/** The e-mail's lockout state and its user (hash, profile type, admin role) in one round trip (decision 089). */
export async function readLogin(db: Database, email: string): Promise<LoginRead> {
  const [row] = await queryRows<{ blocked_until: string | Date | null; id: string | null; password_hash: string | null; profile_type: ProfileType | null; roles: Role[] | null }>(
    db,
    sql`
    select
      (select t.blocked_until from login_throttles t where t.email = ${email}) as blocked_until,
      u.id, u.password_hash, p.profile_type,
      (select array_agg(r.role::text) from user_roles r where r.user_id = u.id) as roles
    from (select 1) one
    left join users u on u.email = ${email}
    left join profiles p on p.user_id = u.id`,
    { prepare: true },
  );
  const blockedUntil = row?.blocked_until ? new Date(row.blocked_until) : null;
  if (!row?.id || !row.password_hash) return { blockedUntil, user: null };
  return { blockedUntil, user: { id: row.id, passwordHash: row.password_hash, profileType: row.profile_type, isAdmin: (row.roles ?? []).includes("admin") } };
}

/** A successful login's writes in one statement: the audit row, the failure counter cleared, the session. */
export async function recordSuccessfulLogin(db: Database, email: string, session: Session, userAgent: string | null, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const agent = userAgent?.slice(0, 500) ?? null;
  await queryRows(
    db,
    sql`
    with attempt as (
      insert into login_attempts (email, success, user_agent, created_at) values (${email}, true, ${agent}, ${at})
    ),
    cleared as (
      delete from login_throttles where email = ${email}
    )
    insert into sessions (id, user_id, expires_at, created_at, user_agent)
    values (${session.id}, ${session.userId}::uuid, ${session.expiresAt.toISOString()}::timestamptz, ${at}, ${agent})`,
    { prepare: true },
  );
}
