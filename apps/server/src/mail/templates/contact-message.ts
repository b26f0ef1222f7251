import { PRODUCT_NAME, type ContactInput } from "@elo/shared";
import { defineEmailTemplate } from "./template";

/** Sent to the platform address (ADMIN_EMAIL) for each message of the contact form on /para-escolas. */
export const contactMessageEmail = defineEmailTemplate<ContactInput>({
  kind: "contact",
  label: "Mensagem do formulário de contato",
  content: (data) => ({
    subject: `[${PRODUCT_NAME}] Contato: ${data.subject} — ${data.name}`.replace(/[\r\n]+/g, " "),
    preheader: `${data.name} enviou uma mensagem pelo formulário de contato.`,
    heading: "Nova mensagem de contato",
    blocks: [
      { kind: "paragraph", text: "Uma mensagem chegou pelo formulário de contato da página Para Escolas." },
      { kind: "details", rows: [["Assunto", data.subject], ["Nome", data.name], ["E-mail", data.email], ["Mensagem", data.message]] },
      { kind: "note", text: `Responda diretamente para ${data.email}.` },
    ],
  }),
  sample: () => ({ subject: "Benefícios", name: "Carla Dias", email: "carla@exemplo.com.br", message: "Olá! Gostaria de saber como funciona o plano Gold para a minha escola de idiomas." }),
});
