/**
 * What the /confirmacao-plano guard says. The guard runs in the web app's entry chunk, so this lives
 * in its own module, apart from the school catalogue (first-load budget, decision 082).
 */
export const planChoiceMessages = {
  loginToChoosePlan: "Você precisa estar logado para escolher um plano",
} as const;
