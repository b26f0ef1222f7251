import { defineEmailTemplate } from "./template";

export interface SchoolRegistrationData {
  name: string;
  uf: string;
  city: string;
  neighborhood: string;
  userName: string;
  userEmail: string;
}

/** send-school-registration: a parent registered a school that was missing from the list. */
export const schoolRegistrationEmail = defineEmailTemplate<SchoolRegistrationData>({
  kind: "school-registration",
  label: "Solicitação de cadastro de escola",
  content: (d) => ({
    subject: `Solicitação de cadastro de escola — ${d.name}`,
    preheader: `${d.userName || d.userEmail} pediu o cadastro de ${d.name} (${d.city}/${d.uf}).`,
    heading: "Nova escola solicitada",
    blocks: [
      { kind: "paragraph", text: "Um responsável cadastrou uma escola que não estava na lista. Ela já pode ser escolhida na plataforma; confira os dados em Gerenciar escolas." },
      {
        kind: "details",
        rows: [
          ["Escola", d.name],
          ["UF", d.uf],
          ["Cidade", d.city],
          ["Bairro", d.neighborhood],
          ["Solicitado por", d.userName],
          ["E-mail", d.userEmail],
        ],
      },
    ],
  }),
  sample: () => ({ name: "Escola Nova Esperança", uf: "SP", city: "São Paulo", neighborhood: "Pinheiros", userName: "Maria Silva", userEmail: "maria@example.com" }),
});
