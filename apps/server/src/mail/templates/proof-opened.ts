import { accessLogMessages as m, PRODUCT_NAME } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface ProofOpenedData {
  parentName: string | null;
  studentName: string | null;
  /** dd/MM/yyyy, São Paulo calendar. */
  date: string;
  /** The stated purpose as the parent reads it ("revisão pelo administrador"). */
  purpose: string;
  /** /privacidade-lgpd, where every access is listed. */
  privacyUrl: string;
}

/** Sent to the parent, in the same transaction, every time an administrator opens their child's proof (issue 27). */
export const proofOpenedEmail = defineEmailTemplate<ProofOpenedData>({
  kind: "proof-opened-by-admin",
  label: "Abertura do comprovante pela administração",
  content: (d) => ({
    subject: `${m.adminOpenedSubject} — ${PRODUCT_NAME}`,
    preheader: m.adminOpenedText(d.studentName, d.date, d.purpose),
    heading: m.adminOpenedSubject,
    blocks: [
      { kind: "paragraph", text: d.parentName ? `Olá, ${d.parentName}!` : "Olá!" },
      { kind: "paragraph", text: m.adminOpenedText(d.studentName, d.date, d.purpose) },
      { kind: "note", text: m.adminOpenedNote },
      { kind: "button", label: m.whoSawTitle, url: d.privacyUrl },
    ],
  }),
  sample: (env) => ({
    parentName: "Maria Silva",
    studentName: "Tomás",
    date: "12/03/2026",
    purpose: "revisão pelo administrador",
    privacyUrl: `${env.publicOrigin}/privacidade-lgpd`,
  }),
});

/** Sent to each staff member of a school that opened a proof the parent has since deleted or replaced: names no child, links nothing. */
export const discardCopiesEmail = defineEmailTemplate<{ recipientName: string | null }>({
  kind: "discard-copies",
  label: "Pedido de descarte de cópias de um comprovante",
  content: (d) => ({
    subject: `${m.discardSubject} — ${PRODUCT_NAME}`,
    preheader: m.discardSubject,
    heading: m.discardSubject,
    blocks: [
      { kind: "paragraph", text: d.recipientName ? `Olá, ${d.recipientName}!` : "Olá!" },
      { kind: "paragraph", text: m.discardText },
      { kind: "note", text: m.discardNote },
    ],
  }),
  sample: () => ({ recipientName: "Carla" }),
});
