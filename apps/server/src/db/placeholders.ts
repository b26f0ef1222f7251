import { Placeholder, sql } from "drizzle-orm";
import type { Bound } from "./raw";

/** `T` with each leaf (string, number, boolean) either its value or a placeholder; absent keys stay absent. */
export type BoundAll<T> = T extends undefined ? undefined : T extends readonly (infer U)[] ? BoundAll<U>[] : T extends object ? { [K in keyof T]: BoundAll<T[K]> } : Bound<T>;

/**
 * A statement's values (plain objects and arrays of strings, numbers and booleans) seen as
 * placeholders (decision 215): each leaf is named by its path (`userId`, `filters.words.0`,
 * `cursor.id`). `named`: the values by those names, for `queryBuilt`; `shape`: the object without
 * its leaves (its keys and array lengths), which decides the statement's text and so keys a cache
 * of statements built once. Undefined keys are left out of both.
 */
export function namedValues(values: object): { named: Record<string, unknown>; shape: string } {
  const named: Record<string, unknown> = {};
  const visit = (v: unknown, path: string): string => {
    if (Array.isArray(v)) return `[${v.map((x, i) => visit(x, `${path}.${i}`)).join(",")}]`;
    if (isPlainObject(v)) return `{${present(v).map(([k, x]) => `${k}:${visit(x, path ? `${path}.${k}` : k)}`).join(",")}}`;
    named[path] = v;
    return "$";
  };
  return { named, shape: visit(values, "") };
}

/** `values` with each leaf replaced by the placeholder `namedValues` names it by. */
export function placeholdersFor<T extends object>(values: T): BoundAll<T> {
  const visit = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => visit(x, `${path}.${i}`));
    if (isPlainObject(v)) return Object.fromEntries(present(v).map(([k, x]) => [k, visit(x, path ? `${path}.${k}` : k)]));
    return sql.placeholder(path);
  };
  return visit(values, "") as BoundAll<T>;
}

/** The placeholders' names among a built statement's parameters, and its fixed parameters. */
export function splitParams(params: unknown[]): { names: Set<string>; fixed: unknown[] } {
  const names = new Set<string>();
  const fixed: unknown[] = [];
  for (const p of params) {
    if (p instanceof Placeholder) names.add(p.name);
    else fixed.push(p);
  }
  return { names, fixed };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const present = (v: Record<string, unknown>) => Object.entries(v).filter(([, x]) => x !== undefined);
