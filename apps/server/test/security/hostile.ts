import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { ZodError } from "zod";
import { queryRows } from "../../src/db/raw";
import type { Harness } from "../support/harness";

/** Text that has broken real systems: NUL, over-long, emoji, RTL overrides, combining marks, lone surrogates. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "nome\u0000oculto",
    "a".repeat(100_000),
    "👨‍👩‍👧‍👦🏳️‍🌈🇧🇷",
    "\u202Egnp.exe",
    "\u200F\u0627\u0644\u0639\u0631\u0628\u064A\u0629",
    "e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301",
    "Z\u0364\u0351\u0367\u0311\u0313a\u0308\u0356\u032D",
    "\uD800",
    "\uFEFF",
    "'; drop table users; --",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "%00",
    "\r\n\t",
    "   ",
    "",
  ),
  fc.string({ minLength: 1001, maxLength: 3000 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
);

/** A value of the wrong type for almost any field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  fc.bigInt(),
  fc.date(),
);

/** Keys a client must never be able to set. */
export const MASS_ASSIGNMENT_KEYS = [
  "role",
  "isAdmin",
  "profileCompleted",
  "profile_completed",
  "userId",
  "user_id",
  "discountedFee",
  "discounted_fee",
  "enrollmentProofSubmitted",
  "enrollment_proof_submitted",
  "schoolId",
  "school_id",
  "status",
  "id",
  "createdAt",
  "__proto__",
  "constructor",
] as const;

export type Mutation =
  | { kind: "string"; leaf: number; value: string }
  | { kind: "type"; leaf: number; value: unknown }
  | { kind: "extra"; key: string; value: unknown }
  | { kind: "whole"; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("string" as const), leaf: fc.nat(), value: hostileString }),
  fc.record({ kind: fc.constant("type" as const), leaf: fc.nat(), value: wrongType }),
  fc.record({ kind: fc.constant("extra" as const), key: fc.oneof(fc.constantFrom(...MASS_ASSIGNMENT_KEYS), fc.string({ minLength: 1, maxLength: 10 })), value: fc.oneof(wrongType, hostileString, fc.constant(true), fc.constant("admin")) }),
  fc.record({ kind: fc.constant("whole" as const), value: fc.oneof(wrongType, hostileString, fc.constant(undefined)) }),
);

type Path = (string | number)[];
function leaves(value: unknown, path: Path = []): Path[] {
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const out = Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
    return out.length ? out : [path];
  }
  return [path];
}

/** How many leaf fields a sample input has. */
export const leafCount = (value: unknown) => leaves(value).length;

/** The valid input with one mutation applied (a deep copy; the valid input stays valid). */
export function applyMutation(valid: unknown, m: Mutation): unknown {
  if (m.kind === "whole") return m.value;
  const copy = valid === undefined ? {} : structuredClone(valid);
  if (m.kind === "extra") {
    // defineProperty: a plain assignment of "__proto__" would change the prototype instead of adding a key.
    if (copy && typeof copy === "object") Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const all = leaves(copy);
  const path = all[m.leaf % all.length]!;
  if (path.length === 0) return m.value;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = m.value;
  return copy;
}

const ENGLISH = /\b(Invalid|expected|received|Unrecognized|Too (big|small)|must be|Required)\b/;

/** What a refusal must look like: a tRPC 4xx whose messages (and zod issue messages) are Portuguese. */
export function checkRefusal(error: unknown): string | null {
  if (!(error instanceof TRPCError)) return `not a TRPCError: ${String(error)}`;
  const status = getHTTPStatusCodeFromError(error);
  if (status < 400 || status >= 500) return `${error.code} (${status}): ${error.message.slice(0, 200)}`;
  const messages = error.cause instanceof ZodError ? error.cause.issues.map((i) => i.message) : [error.message];
  const english = messages.find((m) => ENGLISH.test(m));
  return english ? `message not in Portuguese: ${english}` : null;
}

const COUNTED = [
  "users", "profiles", "schools", "discounts", "discount_transactions", "claimed_discounts", "enrollments", "school_memberships",
  "subscriptions", "api_tokens", "contact_messages", "user_consents", "user_roles", "sessions", "password_reset_tokens",
  "email_confirmation_tokens", "enrollment_proofs", "enrollment_proof_views",
] as const;
const countsQuery = sql.raw(`select ${COUNTED.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(", ")}`);

/** Row counts of every table a procedure can write to, in one statement. */
export async function rowCounts(h: Harness) {
  const [row] = await queryRows<Record<string, number>>(h.db, countsQuery);
  return row!;
}
