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

// ─── Schema-driven sweep (decision 108): fields found in each procedure's zod input ───

/** A string or number field of a procedure's input, found by walking its zod schema. */
export interface InputField {
  path: Path;
  kind: "string" | "number";
  /** The regular expressions the string must match (a token field's base64url alphabet, a uuid). */
  patterns: RegExp[];
}

type ZodNode = { _zod?: { def: Record<string, any> } };
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch", "lazy"]);

/**
 * Every string and number field of a zod schema, with its path: also the optional fields a sample
 * input leaves out (a marketplace cursor), so a new field is swept the day it is added.
 */
export function inputFields(schema: unknown, path: Path = []): InputField[] {
  const def = (schema as ZodNode | undefined)?._zod?.def;
  if (!def) return [];
  if (WRAPPERS.has(def.type)) return inputFields(def.type === "lazy" ? def.getter() : def.innerType, path);
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, child]) => inputFields(child, [...path, key]));
    case "array":
      return inputFields(def.element, [...path, 0]);
    case "pipe":
      return inputFields(def.in, path);
    case "union": {
      const all = (def.options as unknown[]).flatMap((o) => inputFields(o, path));
      return all.filter((f, i) => all.findIndex((g) => g.kind === f.kind && g.path.join(".") === f.path.join(".")) === i);
    }
    case "string": {
      const checks = ((def.checks ?? []) as ZodNode[]).map((c) => c._zod?.def.pattern);
      return [{ path, kind: "string", patterns: [def.pattern, ...checks].filter((p): p is RegExp => p instanceof RegExp) }];
    }
    case "number":
      return [{ path, kind: "number", patterns: [] }];
    default:
      return [];
  }
}

/** The value at `path` of `value` (undefined when any step is missing). */
export const valueAt = (value: unknown, path: Path): unknown => path.reduce<any>((node, key) => (node == null ? undefined : node[key]), value);

/** A deep copy of `value` with `path` set to `leaf`, creating the objects on the way. */
export function withValueAt(value: unknown, path: Path, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy: any = value !== null && typeof value === "object" ? structuredClone(value) : {};
  let node = copy;
  for (const [i, key] of path.slice(0, -1).entries()) {
    if (node[key] === null || typeof node[key] !== "object") node[key] = typeof path[i + 1] === "number" ? [] : {};
    node = node[key];
  }
  node[path.at(-1)!] = leaf;
  return copy;
}

/** Every C0 control character but NUL (swept on its own), DEL, C1 controls and invisible or broken code points. */
export const CONTROL_TEXTS = [
  `a${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("")}\u007Fb`,
  "a\u0080\u0085\u009B\u009F\u200B\u200E\u202E\u2028\u2029\uFEFF\uFFFE\uFFFFb",
  "a\uD800b\uDFFF",
];

/** Numbers with more than two decimals: no field takes them (money is in centavos, ids are integers). */
export const OVER_PRECISE = [0.001, 100.005, 1e-7, 0.1 + 0.2];

/** Near-valid parts of an opaque token (a cursor): impossible moments, odd ids, flags and counts. */
export const TOKEN_PARTS = [
  "2", "-1", "", "true", "NaN", "1e999", "99999999999999999999",
  "2024-02-30T00:00:00Z", "2023-02-29T12:00:00.5+00:00", "2024-13-01T00:00:00Z", "0000-01-01T00:00:00Z",
  "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z", "2024-01-01T23:59:61Z", "2024-01-01T12:00:00+99", "2024-01-01T12:00:00-16:00", "99999-01-01T00:00:00Z",
  "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "gggggggg-gggg-gggg-gggg-gggggggggggg", "x\u0000y",
];
const TOKEN_DELIMITERS = ["|", ":", ",", "."];
const base64url = (text: string) => Buffer.from(text).toString("base64url");

/**
 * Crafted variants of an opaque token the server handed out (base64url of parts joined by a
 * delimiter, as marketplace cursors are): each part replaced by each near-valid part, one part more
 * and one less. Empty when `token` is not such a token.
 */
export function tokenVariants(token: unknown): string[] {
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]+$/.test(token)) return [];
  const text = Buffer.from(token, "base64url").toString("utf8");
  const delimiter = TOKEN_DELIMITERS.find((d) => text.includes(d));
  if (!delimiter || base64url(text) !== token || !/^[\x20-\x7e]+$/.test(text)) return [];
  const parts = text.split(delimiter);
  const replaced = parts.flatMap((_, i) => TOKEN_PARTS.map((p) => parts.map((q, j) => (j === i ? p : q))));
  return [...replaced, [...parts, parts[0]!], parts.slice(1)].map((ps) => base64url(ps.join(delimiter)));
}

/** Random tokens in the same style, for a base64url field the sample leaves empty. */
export const randomToken: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.constantFrom(...TOKEN_PARTS, "0", "1", crypto.randomUUID()), { minLength: 1, maxLength: 4 }), fc.constantFrom(...TOKEN_DELIMITERS))
  .map(([parts, d]) => base64url(parts.join(d)));

/** True when a field only takes base64url text: an opaque token such as a cursor. */
export const isTokenField = (f: InputField) => f.kind === "string" && f.patterns.some((p) => p.test("Ab0_-") && !p.test("a|b") && !p.test("a b"));

/** The hostile values for one field: `mustRefuse` ones have to be refused (4xx), the others only never crash. */
export function fieldMutations(field: InputField, sampleValue: unknown): { value: unknown; mustRefuse: boolean; label: string }[] {
  if (field.kind === "number") return OVER_PRECISE.map((value) => ({ value, mustRefuse: true, label: `the over-precise number ${value}` }));
  const tokens = tokenVariants(sampleValue);
  const crafted = tokens.length ? tokens : isTokenField(field) ? fc.sample(randomToken, { numRuns: 40, seed: 108 }) : [];
  return [
    ...CONTROL_TEXTS.map((value) => ({ value, mustRefuse: false, label: "control characters" })),
    ...crafted.map((value) => ({ value, mustRefuse: false, label: `the crafted token ${Buffer.from(value, "base64url").toString()}` })),
  ];
}
