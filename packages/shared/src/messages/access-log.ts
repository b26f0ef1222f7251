/**
 * Issue 27: who opened a child's data and with whom it was shared (LGPD Art. 9 V, 18 VII, 19),
 * the administrator's stated purpose, and the notices that ask recipients to discard copies.
 */

/** Why someone outside the family opened a proof: a fixed list (the administrator picks one). */
export const ACCESS_PURPOSES = ["verificacao_matricula", "revisao_administrador", "suporte", "incidente_seguranca", "ordem_judicial"] as const;
export type AccessPurpose = (typeof ACCESS_PURPOSES)[number];
export const ACCESS_PURPOSE_LABELS: Record<AccessPurpose, string> = {
  verificacao_matricula: "verificação da matrícula",
  revisao_administrador: "revisão pelo administrador",
  suporte: "suporte com número do chamado",
  incidente_seguranca: "incidente de segurança",
  ordem_judicial: "ordem judicial",
};
/** The purposes an administrator may state (the school's staff always open to verify the enrollment). */
export const ADMIN_ACCESS_PURPOSES = ACCESS_PURPOSES;

export const accessLogMessages = {
  purposeLabel: "Finalidade do acesso",
  purposeRequired: "Escolha a finalidade do acesso: o responsável será avisado por e-mail.",
  ticketLabel: "Número do chamado",
  ticketRequired: "Informe o número do chamado de suporte.",
  ticketInvalid: "Use de 1 a 40 letras, números, pontos, barras ou hifens no número do chamado.",
  purposeDialogTitle: "Por que você vai abrir estes dados?",
  purposeDialogText:
    "A LGPD pede que todo acesso de um administrador tenha uma finalidade. Ela fica registrada e o responsável recebe um e-mail dizendo quando e para quê os dados foram abertos.",
  purposeDialogOpen: "Abrir com esta finalidade",
  organizationAdmin: "Administração Elo Escolar",
  roleAdmin: "Administrador",
  roleStaff: "Equipe da escola",
  actionOpening: "Abriu o comprovante de matrícula",
  actionDecisionVerified: "Confirmou a matrícula",
  actionDecisionRefused: "Recusou o comprovante",
  actionDecision: "Decidiu sobre o comprovante",
  actionDeskLookup: "Consultou o voucher no balcão",
  viaApiToken: "por integração (token de API)",
  purposeNotStated: "não informada (antes de a finalidade ser obrigatória)",
  // The parent's page.
  whoSawTitle: "Quem viu os dados do meu filho",
  whoSawIntro:
    "Cada vez que a escola ou a administração do Elo Escolar abre o comprovante de matrícula, decide sobre ele ou consulta um voucher seu no balcão, o acesso fica registrado aqui. Suas próprias aberturas não aparecem.",
  whoSawEmpty: "Ninguém além de você abriu os dados do seu filho até agora.",
  columnWhen: "Data e hora",
  columnOrganization: "Quem",
  columnAction: "O que fez",
  columnPurpose: "Finalidade",
  sharedTitle: "Com quem seus dados foram compartilhados",
  sharedIntro:
    "Lista feita a partir dos registros do sistema: as escolas que receberam seus dados para verificar a matrícula ou atender um voucher, e os operadores que tratam dados em nome do Elo Escolar.",
  sharedEmpty: "Nenhuma escola recebeu seus dados até agora.",
  sharedSchoolProof: "Escola do aluno: recebeu o comprovante de matrícula",
  sharedSchoolVoucher: "Instituição do benefício: recebeu o voucher",
  sharedOperators: "Operadores (tratam dados em nome do Elo Escolar)",
  sharedSince: "Desde",
  sharedUntil: "até",
  sharedWhat: "O que recebeu",
  proofSaw: "comprovante de matrícula, nome do responsável, nome do aluno e turma declarada",
  voucherSaw: "nome do responsável, nome do aluno, código do voucher, benefício e situação da matrícula verificada",
  operatorMail: "Envio de e-mails",
  operatorMailSmtp: "serviço de envio de e-mails (SMTP) contratado pela plataforma",
  operatorMailLog: "nenhum: nesta instalação os e-mails ficam no registro do servidor",
  operatorStorage: "Armazenamento de arquivos",
  operatorStorageS3: "armazenamento de objetos compatível com S3",
  operatorStorageDisk: "disco do próprio servidor da plataforma",
  operatorHosting: "Hospedagem",
  operatorHostingText: "provedor de hospedagem do servidor e do banco de dados",
  operatorMailWhat: "seu e-mail, nome e o conteúdo das mensagens",
  operatorStorageWhat: "foto e comprovantes de matrícula",
  operatorHostingWhat: "todos os dados da conta",
  // The parent's e-mail when an administrator opens a proof.
  adminOpenedSubject: "A administração abriu o comprovante de matrícula",
  adminOpenedText: (student: string | null, date: string, purpose: string) =>
    `A administração do Elo Escolar abriu o comprovante de matrícula${student ? ` de ${student}` : ""} em ${date} para: ${purpose}.`,
  adminOpenedNote: "Você pode ver todos os acessos aos dados do seu filho em Privacidade e LGPD.",
  // The notice to the staff of a school that opened a proof which is now deleted or replaced.
  discardSubject: "Descarte cópias de um comprovante de matrícula",
  discardText:
    "Um responsável excluiu a conta ou substituiu um comprovante de matrícula que a equipe da sua escola abriu pelo Elo Escolar. Se alguém da escola salvou, imprimiu ou encaminhou uma cópia desse comprovante, descarte-a.",
  discardNote: "Por privacidade, esta mensagem não identifica o responsável nem o aluno (LGPD, art. 18, § 6º).",
  // The incidents register (admin).
  incidentsTitle: "Incidentes de segurança",
  incidentsIntro:
    "Registro dos incidentes com dados pessoais (Resolução CD/ANPD 15/2024), guardado por 5 anos. Para saber quem foi afetado numa janela de tempo, rode npm run incident -- --from aaaa-mm-dd --to aaaa-mm-dd [--school nome].",
  incidentsEmpty: "Nenhum incidente registrado.",
  incidentNew: "Registrar incidente",
  incidentSaved: "Incidente registrado",
  incidentTitleLabel: "O que aconteceu",
  incidentDetectedLabel: "Detectado em",
  incidentWindowFromLabel: "Início da janela",
  incidentWindowToLabel: "Fim da janela",
  incidentNatureLabel: "Natureza dos dados afetados",
  incidentAccountsLabel: "Contas afetadas",
  incidentChildrenLabel: "Crianças envolvidas",
  incidentMeasuresLabel: "Medidas adotadas",
  incidentCommunicatedLabel: "Comunicado à ANPD e aos titulares em",
  incidentNotCommunicated: "Ainda não comunicado",
  incidentTitleRequired: "Descreva o incidente em poucas palavras.",
  incidentNatureRequired: "Diga quais dados pessoais foram afetados.",
  incidentMeasuresRequired: "Diga quais medidas foram ou serão adotadas.",
  incidentDateInvalid: "Informe uma data válida.",
  incidentWindowInvalid: "O fim da janela deve ser depois do início.",
  incidentTooLong: (max: number) => `Use no máximo ${max} caracteres.`,
} as const;
