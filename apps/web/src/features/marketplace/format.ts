import { marketplaceMessages as m } from "@elo/shared";

const pct = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

/** '-30%' or '-12,5%'. */
export const percentOff = (value: number) => m.percentOff(pct.format(value));

/** '1 vaga disponível' / 'N vagas disponíveis'. */
export const slotsText = (n: number) => (n === 1 ? m.oneSlot : m.slots(n));

/**
 * The card's button (spec 1 §2): claimed wins over sold out. A sold-out card stays in the list with
 * its disabled 'Esgotado' and, under it, the waitlist (decision 123).
 */
export function claimButton(benefit: { claimed: boolean; numberOfStudents: number; requiresVerifiedEnrollment?: boolean }, busyElsewhere = false, emailConfirmed = true, enrollmentVerified = true) {
  if (benefit.claimed) return { label: m.alreadyClaimed, disabled: true };
  if (benefit.numberOfStudents <= 0) return { label: m.soldOut, disabled: true };
  if (benefit.requiresVerifiedEnrollment && !enrollmentVerified) return { label: m.requiresVerified, disabled: true };
  // Issue 21: the card says why it cannot be claimed yet and offers the resend next to it.
  if (!emailConfirmed) return { label: m.confirmEmailToClaim, disabled: true };
  return { label: m.claim, disabled: busyElsewhere };
}

/**
 * The list after a claim answered 'Desconto indisponível': that card turns 'Esgotado' in place
 * (with its waitlist) until the list is fetched again.
 */
export function markSoldOut<L extends { items: { discountId: string; numberOfStudents: number }[] }>(list: L | undefined, discountId: string): L | undefined {
  if (!list) return list;
  return { ...list, items: list.items.map((i) => (i.discountId === discountId ? { ...i, numberOfStudents: 0 } : i)) };
}
