import { formatDate, PRODUCT_NAME } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface EnrollmentRenewalData {
  parentName: string | null;
  /** The new school year (the calendar year of January's e-mail). */
  year: number;
  /** The schools whose verification ends this February. */
  schoolNames: string[];
  /** Last day of the current verifications (yyyy-MM-dd). */
  verifiedUntil: string;
  /** /meus-dados, where the new proof is sent. */
  profileUrl: string;
}

/** January: the verification ends with February; the parent is asked for the new school year's proof. */
export const enrollmentRenewalEmail = defineEmailTemplate<EnrollmentRenewalData>({
  kind: "enrollment-renewal",
  label: "Comprovante do novo ano letivo",
  content: (d) => ({
    subject: `Envie o comprovante de matrícula de ${d.year} — ${PRODUCT_NAME}`,
    preheader: `Sua matrícula verificada vale até ${formatDate(d.verifiedUntil)}.`,
    heading: `Comprovante de matrícula de ${d.year}`,
    blocks: [
      { kind: "paragraph", text: d.parentName ? `Olá, ${d.parentName}!` : "Olá!" },
      {
        kind: "paragraph",
        text: `Um novo ano letivo começou. A verificação da matrícula em ${d.schoolNames.join(", ")} vale até ${formatDate(d.verifiedUntil)}. Envie o comprovante de matrícula de ${d.year} para que a escola confirme de novo.`,
      },
      { kind: "button", label: "Enviar comprovante", url: d.profileUrl },
      {
        kind: "note",
        text: "Depois dessa data, benefícios que exigem matrícula verificada só poderão ser aproveitados quando o novo comprovante for confirmado. Os vouchers que você já tem continuam valendo.",
      },
    ],
  }),
  sample: (env) => ({ parentName: "Maria Silva", year: 2027, schoolNames: ["Colégio Horizonte"], verifiedUntil: "2027-02-28", profileUrl: `${env.publicOrigin}/meus-dados` }),
});
