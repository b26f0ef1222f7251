import { LIMITS, PRODUCT_NAME } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface EmailConfirmationData {
  /** The person's name, when known. */
  name: string | null;
  /** The full link to /confirmar-email?token=... */
  confirmUrl: string;
}

/** Sent at signup and by 'Reenviar e-mail': the single-use link that confirms the address (24 h). */
export const emailConfirmationEmail = defineEmailTemplate<EmailConfirmationData>({
  kind: "email-confirmation",
  label: "Confirmação de e-mail",
  content: (data) => ({
    subject: `Confirme seu e-mail — ${PRODUCT_NAME}`,
    preheader: `Um clique confirma o seu endereço. O link vale por ${LIMITS.emailConfirmationHours} horas.`,
    heading: "Confirme seu e-mail",
    blocks: [
      { kind: "paragraph", text: data.name ? `Olá, ${data.name}!` : "Olá!" },
      { kind: "paragraph", text: `Para reservar benefícios no ${PRODUCT_NAME}, confirme que este endereço é seu clicando no botão abaixo.` },
      { kind: "button", label: "Confirmar e-mail", url: data.confirmUrl },
      { kind: "note", text: `Este link vale por ${LIMITS.emailConfirmationHours} horas e só pode ser usado uma vez.` },
      { kind: "note", text: `Se você não criou uma conta no ${PRODUCT_NAME}, ignore este e-mail: nada será feito com o seu endereço.` },
    ],
  }),
  sample: (env) => ({ name: "Maria Silva", confirmUrl: `${env.publicOrigin}/confirmar-email?token=exemplo-de-token` }),
});
