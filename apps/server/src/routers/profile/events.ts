import { EventEmitter, on } from "node:events";
import type { Database, DatabaseHandle } from "@elo/db";
import { sql } from "drizzle-orm";

/** The PostgreSQL channel that carries "this user's profile row changed" (payload: the user id). */
export const PROFILE_CHANNEL = "profile_changed";

/** Tells every server process on this database that `userId`'s profile changed (delivered at commit). */
export async function notifyProfileChanged(db: Database, userId: string) {
  await db.execute(sql`select pg_notify(${PROFILE_CHANNEL}, ${userId})`);
}

interface Hub {
  emitter: EventEmitter;
  ready: Promise<unknown>;
}
const hubs = new WeakMap<DatabaseHandle, Hub>();

/** One LISTEN per database handle, fanned out to this process's subscribers by user id. */
function hubFor(handle: DatabaseHandle): Hub {
  let hub = hubs.get(handle);
  if (!hub) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    const ready = handle.listen(PROFILE_CHANNEL, (userId) => emitter.emit(userId));
    ready.catch(() => hubs.delete(handle));
    hub = { emitter, ready };
    hubs.set(handle, hub);
  }
  return hub;
}

/** Yields once each time `userId`'s profile changes, until `signal` aborts. */
export async function* profileChanges(handle: DatabaseHandle, userId: string, signal: AbortSignal | undefined): AsyncGenerator<void> {
  const hub = hubFor(handle);
  const events = on(hub.emitter, userId, { signal });
  await hub.ready;
  try {
    for await (const _ of events) yield;
  } catch (error) {
    if ((error as { name?: string }).name !== "AbortError") throw error;
  }
}
