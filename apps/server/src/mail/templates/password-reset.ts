import { PRODUCT_NAME } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface PasswordResetData {
  /** The person's name, when known. */
  name: string | null;
  /** The full link to /reset-password?token=... */
  resetUrl: string;
}

/** Sent by /forgot-password: the single-use link, valid for 1 hour. */
export const passwordResetEmail = defineEmailTemplate<PasswordResetData>({
  kind: "password-reset",
  label: "Recuperação de senha",
  content: (data) => ({
    subject: `Redefinição de senha — ${PRODUCT_NAME}`,
    preheader: "Use o link para criar uma nova senha. Ele vale por 1 hora.",
    heading: "Redefinição de senha",
    blocks: [
      { kind: "paragraph", text: data.name ? `Olá, ${data.name}!` : "Olá!" },
      { kind: "paragraph", text: `Recebemos um pedido para redefinir a senha da sua conta no ${PRODUCT_NAME}. Clique no botão abaixo para escolher uma nova senha.` },
      { kind: "button", label: "Redefinir senha", url: data.resetUrl },
      { kind: "note", text: "Este link vale por 1 hora e só pode ser usado uma vez. Ao redefinir a senha, você será desconectado(a) de todos os dispositivos." },
      { kind: "note", text: "Se você não pediu a redefinição, ignore este e-mail: sua senha continua a mesma." },
    ],
  }),
  sample: (env) => ({ name: "Maria Silva", resetUrl: `${env.publicOrigin}/reset-password?token=exemplo-de-token` }),
});
