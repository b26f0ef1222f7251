import { readFileSync } from "node:fs";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { createDiscount, createOfferingSchool, eligibleParent } from "../support/factories/benefits";
import { sessionCookie } from "../support/factories/sessions";
import { createSchool } from "../support/factories/schools";
import { createUser } from "../support/factories/users";
import { TEST_ORIGIN, type Harness } from "../support/harness";

/** Shared pieces of the load and shutdown tests that drive a spawned server over plain HTTP. */

export interface Outcome {
  /** HTTP status, or 0 when the connection failed before any answer. */
  status: number;
  /** When the answer (or the failure) came, in ms since the epoch. */
  at: number;
  body: string;
}

/** A tRPC mutation over HTTP, as the browser sends it (superjson envelope, allowed Origin). */
export async function mutate(url: string, path: string, input: unknown, cookie?: string, timeoutMs = 60_000): Promise<Outcome & { setCookie: string | null }> {
  try {
    const res = await fetch(`${url}/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ json: input }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.text();
    return { status: res.status, at: Date.now(), body, setCookie: res.headers.get("set-cookie") };
  } catch (error) {
    return { status: 0, at: Date.now(), body: String((error as Error).cause ?? error), setCookie: null };
  }
}

/** One contested benefit and `clients` distinct parents allowed to claim it, each with a session cookie. */
export async function seedClaimStorm(h: Harness, clients: number, slots: number) {
  const main = await createSchool(h, { niche: "Ed. Básica" });
  const offering = await createOfferingSchool(h, { niche: "Idiomas" });
  const discount = await createDiscount(h, offering.id, { slots });
  const cookies: string[] = [];
  const parentIds: string[] = [];
  for (let i = 0; i < clients; i++) {
    const parent = await eligibleParent(h, { schoolId: main.id });
    parentIds.push(parent.id);
    cookies.push(await sessionCookie(h, parent.id));
  }
  return { discountId: discount.id, cookies, parentIds };
}

/** `count` users who can sign in (distinct accounts, so the per-account lockout is not what is measured). */
export async function seedLogins(h: Harness, count: number) {
  const users = [];
  for (let i = 0; i < count; i++) users.push(await createUser(h));
  return users;
}

/** The four numbers that must agree after a claim storm. */
export async function ledger(h: Harness, discountId: string) {
  const [d] = await h.db.select({ n: schema.discounts.numberOfStudents }).from(schema.discounts).where(eq(schema.discounts.id, discountId));
  const tx = await h.db.select({ code: schema.discountTransactions.voucherCode }).from(schema.discountTransactions).where(eq(schema.discountTransactions.discountId, discountId));
  const claimed = await h.db.select({ userId: schema.claimedDiscounts.userId }).from(schema.claimedDiscounts).where(eq(schema.claimedDiscounts.discountId, discountId));
  return { slotsLeft: d!.n, vouchers: new Set(tx.map((t) => t.code)).size, transactions: tx.length, claimedRows: claimed.length };
}

/** Counts outcomes by HTTP status (0: no answer). */
export function byStatus(outcomes: Outcome[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Math.round(Number(line[1]) / 1024);
}
