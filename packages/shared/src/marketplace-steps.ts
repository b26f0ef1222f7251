/**
 * The fee and discount options /home offers with their counts (issue 31, decision 172): "até R$ …"
 * over the monthly fee after the discount, "pelo menos …%" over the discount. marketplace.list's
 * facets count each step, and the value chosen in the address when it is not one of them.
 */
export const MARKETPLACE_FEE_STEPS = [200, 300, 500, 800, 1000, 1500] as const;
export const MARKETPLACE_DISCOUNT_STEPS = [10, 20, 30, 50] as const;

/** The steps with the chosen value among them, in order (the chosen value may be typed by hand). */
export function stepsWith(steps: readonly number[], chosen: number | undefined): number[] {
  return chosen === undefined || steps.includes(chosen) ? [...steps] : [...steps, chosen].sort((a, b) => a - b);
}
