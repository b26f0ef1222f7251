import { formatDate, PRODUCT_NAME, verificationMessages as v } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface EnrollmentDecisionData {
  parentName: string | null;
  studentName: string | null;
  schoolName: string;
  /** Who decided, as the parent reads it: the school's name, or the platform's team. */
  decidedBy: string;
  verified: boolean;
  /** Last day the verification holds (yyyy-MM-dd), when verified. */
  verifiedUntil: string | null;
  /** The refusal's reason as a sentence, when refused. */
  reason: string | null;
  /** /meus-dados, where a new proof is sent. */
  profileUrl: string;
}

/** Sent to the parent on every decision about an enrollment proof. */
export const enrollmentDecisionEmail = defineEmailTemplate<EnrollmentDecisionData>({
  kind: "enrollment-decision",
  label: "Decisão sobre o comprovante de matrícula",
  content: (d) => ({
    subject: `${d.verified ? v.mailVerifiedSubject : v.mailRefusedSubject} — ${PRODUCT_NAME}`,
    preheader: d.verified ? `${d.schoolName} confirmou a matrícula${d.studentName ? ` de ${d.studentName}` : ""}.` : `${d.decidedBy} recusou o comprovante enviado.`,
    heading: d.verified ? v.mailVerifiedSubject : v.mailRefusedSubject,
    blocks: [
      { kind: "paragraph", text: d.parentName ? `Olá, ${d.parentName}!` : "Olá!" },
      d.verified
        ? {
            kind: "paragraph",
            text: `A matrícula${d.studentName ? ` de ${d.studentName}` : ""} em ${d.schoolName} foi verificada por ${d.decidedBy}. Agora você pode aproveitar os benefícios que exigem matrícula verificada.`,
          }
        : { kind: "paragraph", text: `O comprovante de matrícula${d.studentName ? ` de ${d.studentName}` : ""} em ${d.schoolName} foi recusado por ${d.decidedBy}.` },
      ...(d.verified && d.verifiedUntil ? [{ kind: "note" as const, text: `A verificação vale até ${formatDate(d.verifiedUntil)}. Em janeiro pediremos o comprovante do novo ano letivo.` }] : []),
      ...(!d.verified && d.reason ? [{ kind: "details" as const, rows: [["Motivo", d.reason] as const] }] : []),
      { kind: "button", label: d.verified ? "Ver meus dados" : "Enviar novo comprovante", url: d.profileUrl },
    ],
  }),
  sample: (env) => ({
    parentName: "Maria Silva",
    studentName: "Ana Silva",
    schoolName: "Colégio Horizonte",
    decidedBy: "Colégio Horizonte",
    verified: true,
    verifiedUntil: "2027-02-28",
    reason: null,
    profileUrl: `${env.publicOrigin}/meus-dados`,
  }),
});
