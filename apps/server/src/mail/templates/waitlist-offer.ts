import { formatDateTime, waitlistMessages as w } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface WaitlistOfferData {
  parentName: string | null;
  schoolName: string;
  className: string;
  /** Until when the slot is held for this parent alone. */
  expiresAt: Date;
}

/** Sent to the first parent in line when a slot of a sold-out benefit frees up (decision 123). */
export const waitlistOfferEmail = defineEmailTemplate<WaitlistOfferData>({
  kind: "waitlist-offer",
  label: "Vaga aberta na lista de espera",
  content: (d, env) => ({
    subject: w.mailSubject(d.schoolName),
    preheader: w.offerOpen(formatDateTime(d.expiresAt)),
    heading: w.mailHeading,
    blocks: [
      { kind: "paragraph", text: `Olá, ${d.parentName?.trim() || "responsável"}!` },
      { kind: "paragraph", text: w.mailIntro(d.className, d.schoolName, formatDateTime(d.expiresAt)) },
      { kind: "button", label: w.mailButton, url: `${env.publicOrigin}/painel-pais` },
      { kind: "note", text: w.mailNote },
    ],
  }),
  sample: () => ({ parentName: "Maria Silva", schoolName: "Fluent English School", className: "Inglês Kids", expiresAt: new Date("2026-02-12T18:30:00Z") }),
});
