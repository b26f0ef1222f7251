import type { Sql } from "postgres";

/** The pool's figures at one moment: connections serving a query or a transaction, and calls waiting for one. */
export interface PoolStats {
  max: number;
  inUse: number;
  waiting: number;
}

/**
 * Wraps a postgres.js client so that its pool can be measured (decision 186): postgres.js keeps its
 * queues to itself. Every query it executes (`unsafe`, a tagged call) and every transaction (`begin`,
 * holding one connection from its start to its commit) counts from the moment it is handed to the
 * pool until it settles. postgres.js gives each such call a connection of its own while one is idle
 * or not yet opened, and only past `max` pipelines it behind another query or queues it: so of
 * `active` calls, min(active, max) hold a connection and the rest wait. Queries inside a transaction
 * run on the transaction's connection and are not counted again; LISTEN has a connection of its own.
 */
export function countedPool(client: Sql, max: number): { client: Sql; stats: () => PoolStats } {
  let active = 0;
  const settle = () => {
    active--;
  };
  const track = <T>(promise: Promise<T>): Promise<T> => {
    active++;
    // Promise's own then: a postgres.js query's then would start it; this only waits for it.
    Promise.prototype.then.call(promise, settle, settle);
    return promise;
  };
  /** Counts a query from its execution (postgres.js queries are lazy: `handle` runs them once). */
  const countOnRun = <Q>(query: Q): Q => {
    const q = query as unknown as { handle: (...args: unknown[]) => unknown };
    if (typeof q?.handle !== "function") return query;
    const handle = q.handle;
    let counted = false;
    q.handle = function (this: unknown, ...args: unknown[]) {
      if (!counted) {
        counted = true;
        track(query as unknown as Promise<unknown>);
      }
      return handle.apply(this, args);
    };
    return query;
  };
  const wrapped = new Proxy(client, {
    apply(target, thisArg, args) {
      return countOnRun(Reflect.apply(target, thisArg, args));
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      // The function itself behind a counting proxy (not a new function): whatever it carries (a
      // test's spy and its recorded calls) stays readable, and a spy put in its place wraps this one.
      if (prop === "unsafe" && typeof value === "function") return new Proxy(value, { apply: (fn, _self, args) => countOnRun(Reflect.apply(fn, target, args)) });
      if (prop === "begin" && typeof value === "function") return new Proxy(value, { apply: (fn, _self, args) => track(Reflect.apply(fn, target, args) as Promise<unknown>) });
      return value;
    },
  });
  return {
    client: wrapped,
    stats: () => ({ max, inUse: Math.min(active, max), waiting: Math.max(0, active - max) }),
  };
}
