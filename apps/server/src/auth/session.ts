import { LIMITS, type ProfileType, type Role } from "@elo/shared";
import { schema, type Database } from "@elo/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Clock } from "../lib/clock";
import { queryRows } from "../db/raw";
import type { SessionCache } from "./session-cache";
import { generateSecret, hashSecret } from "./tokens";

const DAY = 24 * 60 * 60 * 1000;
const SESSION_MS = LIMITS.sessionDays * DAY;
const ABSOLUTE_MS = LIMITS.sessionAbsoluteDays * DAY;

/** Who is calling: what every procedure may rely on. */
export interface SessionUser {
  id: string;
  email: string;
  profileType: ProfileType | null;
  roles: Role[];
  isAdmin: boolean;
  /** The address was confirmed through its e-mail link (issue 21). */
  emailConfirmed: boolean;
}

export interface Session {
  id: string;
  userId: string;
  expiresAt: Date;
}

/** A new session's token (for the cookie) and row (only the token's hash is stored), not yet saved. */
export function newSession(clock: Clock, userId: string) {
  const token = generateSecret();
  const session: Session = { id: hashSecret(token), userId, expiresAt: new Date(clock.now().getTime() + SESSION_MS) };
  return { token, session };
}

/** Creates a session and returns the token for the cookie (only its hash is stored). */
export async function createSession(db: Database, clock: Clock, userId: string, userAgent?: string | null) {
  const { token, session } = newSession(clock, userId);
  await db.insert(schema.sessions).values({ ...session, createdAt: clock.now(), userAgent: userAgent?.slice(0, 500) ?? null });
  return { token, session };
}

/** Loads the user behind a user id: e-mail, profile type and roles in one query. */
export async function loadSessionUser(db: Database, userId: string): Promise<SessionUser | null> {
  const rows = await db
    .select({
      id: schema.users.id,
      email: schema.users.email,
      profileType: schema.profiles.profileType,
      emailConfirmed: sql<boolean>`${schema.users.emailConfirmedAt} is not null`,
      roles: sql<Role[] | null>`(select array_agg(r.role::text) from user_roles r where r.user_id = ${schema.users.id})`,
    })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
    .where(eq(schema.users.id, userId));
  const row = rows[0];
  if (!row) return null;
  const roles = row.roles ?? [];
  return { id: row.id, email: row.email, profileType: row.profileType, roles, isAdmin: roles.includes("admin"), emailConfirmed: row.emailConfirmed };
}

/**
 * Validates a cookie token: expired sessions (sliding or absolute) are deleted; sessions past half
 * their life are extended (`extended`: the caller must re-send the cookie with the new expiry).
 * Returns null when the token is unknown or expired. The session and its user come in one query,
 * so a request that does not extend its session costs one round trip, and none when `cache` holds
 * it (decision 220).
 */
export async function validateSessionToken(db: Database, clock: Clock, token: string, cache?: SessionCache) {
  const id = hashSecret(token);
  const now = clock.now().getTime();
  const hit = cache?.get(id);
  if (hit) {
    if (!mustRenew(hit, now)) return { session: { id, userId: hit.userId, expiresAt: new Date(hit.expiresAt) } satisfies Session, user: hit.user, extended: false };
    cache!.drop(id);
  }
  const version = cache?.version ?? 0;
  // Every authenticated request sends this: prepared, so it is planned once per connection.
  const [raw] = await queryRows<{ user_id: string; expires_at: Date | string; created_at: Date | string; email: string; email_confirmed: boolean; profile_type: ProfileType | null; roles: Role[] | null }>(
    db,
    sql`
    select s.user_id, s.expires_at, s.created_at, u.email, u.email_confirmed_at is not null as email_confirmed, p.profile_type,
      (select array_agg(r.role::text) from user_roles r where r.user_id = s.user_id) as roles
    from sessions s
    join users u on u.id = s.user_id
    left join profiles p on p.user_id = s.user_id
    where s.id = ${id}`,
    { prepare: true },
  );
  if (!raw) {
    cache?.forget(id);
    return null;
  }
  const row = { userId: raw.user_id, expiresAt: new Date(raw.expires_at).getTime(), createdAt: new Date(raw.created_at).getTime() };
  if (now >= row.expiresAt || now >= row.createdAt + ABSOLUTE_MS) {
    await db.delete(schema.sessions).where(eq(schema.sessions.id, id));
    return null;
  }
  let extended = false;
  if (now >= row.expiresAt - SESSION_MS / 2) {
    const next = Math.min(now + SESSION_MS, row.createdAt + ABSOLUTE_MS);
    if (next > row.expiresAt) {
      row.expiresAt = next;
      extended = true;
      await db.update(schema.sessions).set({ expiresAt: new Date(next) }).where(eq(schema.sessions.id, id));
    }
  }
  const roles = raw.roles ?? [];
  const user: SessionUser = { id: row.userId, email: raw.email, profileType: raw.profile_type, roles, isAdmin: roles.includes("admin"), emailConfirmed: raw.email_confirmed };
  // Slid just now: this update's own notification drops it anyway, so the next request reads it again.
  if (!extended) cache?.store(version, id, { ...row, user });
  return { session: { id, userId: row.userId, expiresAt: new Date(row.expiresAt) } satisfies Session, user, extended };
}

/** Whether the database must see this session again: expired (it is deleted) or past half its life (it slides). */
function mustRenew(session: { expiresAt: number; createdAt: number }, now: number) {
  return now >= session.expiresAt - SESSION_MS / 2 || now >= session.createdAt + ABSOLUTE_MS;
}

export async function invalidateSession(db: Database, sessionId: string) {
  await db.delete(schema.sessions).where(eq(schema.sessions.id, sessionId));
}

/** Signs a user out everywhere (password change, reset, account deletion). */
export async function invalidateUserSessions(db: Database, userId: string) {
  await db.delete(schema.sessions).where(eq(schema.sessions.userId, userId));
}

/** Revokes every API token of a user (password reset, account deletion). */
export async function revokeUserApiTokens(db: Database, userId: string, at: Date = new Date()) {
  await db
    .update(schema.apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(schema.apiTokens.userId, userId), isNull(schema.apiTokens.revokedAt)));
}
