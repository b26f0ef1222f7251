import type { DataTransformer } from "@trpc/server";
import superjson from "superjson";

/**
 * Whether a value is JSON as it stands: what superjson would send as `{ json: value }` with no
 * annotations. Anything it annotates (Date, undefined, bigint, NaN, ±Infinity, -0, Map, Set, class
 * instances, ...) answers false.
 */
export function isPlainJson(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * superjson's wire format, cheaper to write: an answer that is plain JSON (most of them: the
 * marketplace page, the trivial procedures) goes out as `{ json: value }` after one quick look
 * instead of superjson's walk, which builds a path and an annotation slot per value (~10× the
 * cost on a page of 24 cards, decision 210). Anything superjson annotates goes through superjson
 * itself, so every client (the web app, packages/client) reads both with `superjson.deserialize`.
 * One difference: an object referenced twice in a plain answer arrives as two equal copies, without
 * superjson's referential-equality note. Inputs are read by superjson as before.
 */
export const transformer: DataTransformer = {
  serialize: (value: unknown) => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
  deserialize: (payload: unknown) => superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0]),
};
