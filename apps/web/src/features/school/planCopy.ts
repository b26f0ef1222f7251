import { formatBRL, PLANS, schoolUi, type PlanType } from "@elo/shared";

/** The feature matrix of spec 2 §9: which plan brings what. */
export const PLAN_FEATURES: Array<{ label: string; plans: readonly PlanType[] }> = [
  { label: schoolUi.featureOwnStudents, plans: ["bronze", "silver", "gold"] },
  { label: schoolUi.featureOtherStudents, plans: ["silver", "gold"] },
  { label: schoolUi.featureBanner, plans: ["gold"] },
];

/** "R$ 39,90/mês no plano anual", or "Gratuito" for Bronze. */
export const planPrice = (plan: PlanType) => {
  const price = PLANS[plan].monthlyPrice;
  return price === null ? schoolUi.free : `${formatBRL(price)}${schoolUi.perMonth}`;
};
