import { PLAN_TYPES, type PlanType } from "@elo/shared";

/** True for bronze, silver or gold. */
export const isPlan = (v: unknown): v is PlanType => typeof v === "string" && (PLAN_TYPES as readonly string[]).includes(v);

/** The `plan` a visitor chose on /para-escolas, carried through /signup and /login (decision 062). */
export const planSearch = (search: Record<string, unknown>): { plan?: PlanType } => (isPlan(search.plan) ? { plan: search.plan } : {});

/**
 * Where a user goes right after signing up or in: an institution user with a pending plan choice
 * continues to /confirmacao-plano; everyone else to their home (`home`).
 */
export function afterAuth<H extends string>(user: { isAdmin?: boolean; profileType: string | null }, plan: PlanType | undefined, home: H) {
  if (plan && !user.isAdmin && user.profileType === "institution") return { to: "/confirmacao-plano" as const, search: { plan } };
  return { to: home };
}
