/** Enumerations and business constants of the spec (both files, §9). */

export const PRODUCT_NAME = "Elo Escolar";

export const PROFILE_TYPES = ["parent", "institution"] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

export const ROLES = ["user", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const MEMBERSHIP_STATUSES = ["pending", "approved", "rejected"] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** School niches; stored as categories. */
export const NICHES = ["Ed. Básica", "Idiomas", "Clubes", "Tecnologia", "Outros"] as const;
export type Niche = (typeof NICHES)[number];

export const ENROLLMENT_PERIODS = ["manha", "tarde", "noite", "sabados"] as const;
export type EnrollmentPeriod = (typeof ENROLLMENT_PERIODS)[number];
export const ENROLLMENT_PERIOD_LABELS: Record<EnrollmentPeriod, string> = {
  manha: "Manhã",
  tarde: "Tarde",
  noite: "Noite",
  sabados: "Sábados",
};

export const TEACHING_STAGES = [
  "ed_infantil",
  "ensino_fundamental",
  "ensino_medio",
  "pre_vestibular",
  "pre_enem",
  "iniciante",
  "intermediario",
  "avancado",
  "outro",
] as const;
export type TeachingStage = (typeof TEACHING_STAGES)[number];
export const TEACHING_STAGE_LABELS: Record<TeachingStage, string> = {
  ed_infantil: "Ed. Infantil",
  ensino_fundamental: "Ensino Fundamental",
  ensino_medio: "Ensino Médio",
  pre_vestibular: "Pré-vestibular",
  pre_enem: "Pré-Enem",
  iniciante: "Iniciante",
  intermediario: "Intermediário",
  avancado: "Avançado",
  outro: "Outro",
};

export const CLASS_PERIODS = ["manha", "tarde", "noite", "integral", "sabados"] as const;
export type ClassPeriod = (typeof CLASS_PERIODS)[number];
export const CLASS_PERIOD_LABELS: Record<ClassPeriod, string> = {
  manha: "Manhã",
  tarde: "Tarde",
  noite: "Noite",
  integral: "Integral",
  sabados: "Sábados",
};

export const DISCOUNT_SCOPES = ["neighborhood", "city", "all_except_own"] as const;
export type DiscountScope = (typeof DISCOUNT_SCOPES)[number];
export const DISCOUNT_SCOPE_LABELS: Record<DiscountScope, string> = {
  neighborhood: "Alunos de instituições complementares do meu bairro",
  city: "Alunos de instituições complementares da minha cidade",
  all_except_own: "Todos os alunos da plataforma, exceto os da minha instituição",
};

export const DISCOUNT_VALIDITIES = [
  "first_month",
  "first_2_months",
  "first_3_months",
  "first_4_months",
  "first_5_months",
  "first_6_months",
  "school_year",
] as const;
export type DiscountValidity = (typeof DISCOUNT_VALIDITIES)[number];
export const DISCOUNT_VALIDITY_LABELS: Record<DiscountValidity, string> = {
  first_month: "Apenas o 1º mês",
  first_2_months: "Os 2 primeiros meses",
  first_3_months: "Os 3 primeiros meses",
  first_4_months: "Os 4 primeiros meses",
  first_5_months: "Os 5 primeiros meses",
  first_6_months: "Os 6 primeiros meses",
  school_year: "Durante todo o ano letivo vigente",
};
/** Months of validity counted from the claim; null = until 31 December of the claim's year. */
export const DISCOUNT_VALIDITY_MONTHS: Record<DiscountValidity, number | null> = {
  first_month: 1,
  first_2_months: 2,
  first_3_months: 3,
  first_4_months: 4,
  first_5_months: 5,
  first_6_months: 6,
  school_year: null,
};

export const DISCOUNT_STATUSES = ["active", "paused"] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];

export const VOUCHER_STATUSES = ["reservado", "utilizado", "expirado", "cancelado"] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const VOUCHER_STATUS_LABELS: Record<VoucherStatus, string> = {
  reservado: "Reservado",
  utilizado: "Utilizado",
  expirado: "Expirado",
  cancelado: "Cancelado",
};

/** Why a reserved voucher was cancelled (decision 122); a parent giving up is `desistencia`. */
export const CANCEL_REASONS = ["desistencia", "nao_matriculado", "dados_incorretos", "outro"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  desistencia: "Desistência",
  nao_matriculado: "Não matriculado",
  dados_incorretos: "Dados incorretos",
  outro: "Outro",
};

/** A waitlist place (decision 123): waiting in line, holding an offer, or ended. */
export const WAITLIST_STATUSES = ["waiting", "offered", "claimed", "lapsed", "left"] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** An enrollment proof's state (issue 21): sent, then confirmed or refused by the school or an admin. */
export const PROOF_STATUSES = ["enviado", "verificado", "recusado"] as const;
export type ProofStatus = (typeof PROOF_STATUSES)[number];
export const PROOF_STATUS_LABELS: Record<ProofStatus, string> = {
  enviado: "Em análise",
  verificado: "Verificada",
  recusado: "Recusada",
};

/** Why a proof was refused; `outro` carries a text. */
export const PROOF_REFUSAL_REASONS = ["ilegivel", "outro_aluno", "outra_escola", "documento_vencido", "outro"] as const;
export type ProofRefusalReason = (typeof PROOF_REFUSAL_REASONS)[number];
export const PROOF_REFUSAL_REASON_LABELS: Record<ProofRefusalReason, string> = {
  ilegivel: "Documento ilegível",
  outro_aluno: "O documento é de outro aluno",
  outra_escola: "O documento é de outra escola",
  documento_vencido: "Documento vencido",
  outro: "Outro motivo",
};

export const PLAN_TYPES = ["bronze", "silver", "gold"] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PLANS: Record<PlanType, { name: string; monthlyPrice: number | null; publishes: boolean; highlighted: boolean }> = {
  bronze: { name: "Bronze", monthlyPrice: null, publishes: false, highlighted: false },
  silver: { name: "Silver", monthlyPrice: 39.9, publishes: true, highlighted: false },
  gold: { name: "Gold", monthlyPrice: 49.9, publishes: true, highlighted: true },
};

export const CONTACT_SUBJECTS = ["Login", "Conta e senha", "Benefícios", "Dados cadastrais", "Outro"] as const;

export const LIMITS = {
  emailMax: 255,
  nameMax: 100,
  passwordMin: 6,
  passwordMax: 100,
  contactMessageMax: 1000,
  loginMaxFailures: 5,
  loginBlockMinutes: 15,
  consentVersion: "1.0",
  voucherRetries: 5,
  /** Longest hold a school may set on reserved vouchers, in days (decision 121). */
  holdDaysMax: 90,
  /** How long a waitlist offer holds its slot for the parent it was offered to (decision 123). */
  waitlistOfferHours: 48,
  signedUrlSeconds: 3600,
  avatarRefreshMinutes: 50,
  avatarMaxBytes: 2 * 1024 * 1024,
  schoolLogoMaxBytes: 2 * 1024 * 1024,
  adminLogoMaxBytes: 5 * 1024 * 1024,
  proofMaxBytes: 5 * 1024 * 1024,
  csvMaxBytes: 5 * 1024 * 1024,
  csvMaxRows: 500,
  /** More than this many header cells is refused before the rows are parsed (the template has 10). */
  csvMaxColumns: 50,
  /** Width × height an uploaded image may declare (decision 096): a 50000×50000 header is a decompression bomb. */
  imageMaxPixels: 40_000_000,
  otherEnrollmentsMax: 3,
  bannerDelayMs: 1000,
  skeletonCards: 6,
  /** Marketplace cards per page ("Carregar mais" fetches the next), and the most one call may ask for. */
  marketplacePageSize: 24,
  marketplacePageMax: 100,
  /** Longest marketplace search text (issue 31). */
  marketplaceSearchMax: 100,
  /** Highest "fee up to" filter, in reais (numeric(10,2)). */
  marketplaceMaxFee: 99_999_999.99,
  redirectAfterSignupMs: 2000,
  redirectAfterResetMs: 2000,
  redirectInvalidLinkMs: 3000,
  toastDurationMs: 5000,
  copyrightYear: 2025,
  sessionDays: 30,
  sessionAbsoluteDays: 90,
  resetTokenMinutes: 60,
  /** Calls one batched /trpc request may carry (the web client splits larger batches); more answer 400. */
  batchMaxCalls: 20,
  /** The e-mail confirmation link's life. */
  emailConfirmationHours: 24,
  /** Staff see a decided proof in 'Confirmar matrículas' for this many days. */
  proofDecidedVisibleDays: 30,
  proofRefusalNoteMax: 300,
  declaredClassMax: 60,
} as const;

/** The terms of use and privacy policy PDF, generated by the web build. */
export const TERMS_PDF_PATH = "/termos-de-uso-e-privacidade.pdf";
