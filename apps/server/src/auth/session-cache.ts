import type { DatabaseHandle } from "@elo/db";
import type { FastifyBaseLogger } from "fastify";
import type { SessionUser } from "./session";

/** The channel migration 0021's triggers notify with the user id ('*': everyone) whose sessions may read differently now. */
export const SESSIONS_CHANNEL = "sessions_changed";

/** An entry's longest life, should a notification be lost while the listening connection was down. */
export const SESSION_CACHE_MAX_AGE_MS = 30_000;

/**
 * How many sessions read gone and users changed here are remembered one by one (decision 220); past
 * it, one mark for everyone's lookups in flight replaces them, so a stream of unknown cookies costs
 * bounded memory.
 */
export const SESSION_CACHE_MARKS_MAX = 1_024;

/** What a validated session reads: enough to answer the next request without the database. */
export interface CachedSession {
  userId: string;
  expiresAt: number;
  createdAt: number;
  user: SessionUser;
  at: number;
}

/**
 * The sessions this process validated, by session id (decision 220): a request whose session is here
 * sends no lookup. Every change that could make a session read differently (the session deleted or
 * slid, the user's e-mail, confirmation, profile type or roles, a TRUNCATE) reaches every process
 * through PostgreSQL's NOTIFY at commit and drops that user's entries; a lookup that was in flight
 * across any notification is not kept (it may have read the row before the change). Nothing is kept
 * until LISTEN is in place, everything is dropped when it is (re)established, and no entry outlives
 * SESSION_CACHE_MAX_AGE_MS.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private readonly byUser = new Map<string, Set<string>>();
  /** Counts every change; a lookup's version is the count when it began. */
  private tick = 0;
  /** The count at the last change that may concern any session (a notification, a reconnection). */
  private everyoneAt = 0;
  /**
   * Sessions read gone (`s:<id>`) and users changed here (`u:<id>`), with the count then: a lookup of
   * those begun before is not kept.
   */
  private readonly marks = new Map<string, number>();
  private listening = false;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 20_000,
  ) {}

  /** Starts listening; until it has, and if it fails, every request reads its session from the database. */
  async listen(handle: DatabaseHandle, logger: FastifyBaseLogger): Promise<void> {
    try {
      this.unlisten = await handle.listen(SESSIONS_CHANNEL, (payload) => this.changed(payload), () => this.clear());
      this.listening = true;
    } catch (err) {
      logger.warn({ err }, "sessions: LISTEN failed; every request reads its session from the database");
    }
  }

  async close() {
    this.listening = false;
    this.clear();
    await this.unlisten?.().catch(() => undefined);
  }

  /** The session `id` as last read, if it is here and young enough. */
  get(id: string): CachedSession | undefined {
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    if (this.now() - hit.at < SESSION_CACHE_MAX_AGE_MS) return hit;
    this.drop(id);
    return undefined;
  }

  /** Taken before a lookup: `store` keeps what it read only if nothing changed meanwhile. */
  get version(): number {
    return this.tick;
  }

  store(version: number, id: string, entry: Omit<CachedSession, "at">) {
    if (!this.listening || this.everyoneAt > version || this.markedSince(`s:${id}`, version) || this.markedSince(`u:${entry.userId}`, version)) return;
    if (this.entries.size >= this.maxEntries) this.drop(this.entries.keys().next().value!);
    this.entries.set(id, { ...entry, at: this.now() });
    let ids = this.byUser.get(entry.userId);
    if (!ids) this.byUser.set(entry.userId, (ids = new Set()));
    ids.add(id);
  }

  /** Drops one session (signed out, expired, about to slide). */
  drop(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const ids = this.byUser.get(entry.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(entry.userId);
  }

  /**
   * The database was just read without session `id` (signed out or deleted elsewhere, the
   * notification not here yet): drop it, and keep nothing a lookup in flight read before that, so
   * this process never answers it signed in again once it has answered it signed out. Only that
   * session's lookups are concerned: others' in flight are still kept.
   */
  forget(id: string) {
    this.drop(id);
    this.mark(`s:${id}`);
  }

  private mark(key: string) {
    this.tick++;
    if (this.marks.size >= SESSION_CACHE_MARKS_MAX) this.changedForEveryone();
    else this.marks.set(key, this.tick);
  }

  private markedSince(key: string, version: number): boolean {
    return (this.marks.get(key) ?? -1) > version;
  }

  /** No lookup in flight from before may be kept, whatever its session. */
  private changedForEveryone() {
    this.everyoneAt = ++this.tick;
    this.marks.clear();
  }

  /**
   * `userId` may have just changed something of their own here: their next request reads again, and
   * a lookup of theirs in flight from before (which may have read the row before the change) is not
   * kept, so no request of theirs after this meets the old state here, notification or not.
   */
  dropUser(userId: string) {
    this.dropEntriesOf(userId);
    this.mark(`u:${userId}`);
  }

  private dropEntriesOf(userId: string) {
    for (const id of this.byUser.get(userId) ?? []) this.entries.delete(id);
    this.byUser.delete(userId);
  }

  clear() {
    this.changedForEveryone();
    this.entries.clear();
    this.byUser.clear();
  }

  /** A notification: `payload`'s sessions (or everyone's, '*') may read differently now. */
  changed(payload: string) {
    if (payload === "*") return this.clear();
    this.changedForEveryone();
    this.dropEntriesOf(payload);
  }

  get size(): number {
    return this.entries.size;
  }
}
