/** A toast: title and optional description. */
export type Toast = { title: string; description?: string };

export const accessMessages = {
  unauthenticated: "Você precisa estar autenticado para acessar esta página",
  forbidden: "Você não tem permissão para acessar esta página",
  adminOnly: "Acesso negado. Apenas administradores podem acessar esta página.",
  notLoggedIn: "Você precisa estar logado.",
  userNotAuthenticated: "Usuário não autenticado",
  notFound: "Oops! Page not found",
  backHome: "Voltar para a página inicial",
  validationTitle: "Erro de validação",
  fixInvalidFields: "Por favor, corrija os campos inválidos",
  tooManyRequests: "Muitas requisições. Aguarde um instante e tente novamente.",
  serviceUnavailable: "Serviço temporariamente indisponível. Tente novamente em instantes.",
  unexpected: "Ocorreu um erro inesperado. Tente novamente.",
  retry: "Tentar novamente",
  invalidOrigin: "Origem da requisição não permitida.",
  invalidInput: "Dados inválidos.",
  sessionRequiredTitle: "Ação permitida apenas pelo site",
  sessionRequired: "Por segurança, esta ação exige login com e-mail e senha no site. Tokens de API não podem realizá-la.",
  batchTooLarge: (max: number) => `Requisição com chamadas demais: envie no máximo ${max} por vez.`,
  // tRPC's own refusals, before any procedure runs (decision 223).
  unreadableRequest: "Não foi possível ler a requisição: o corpo ou o parâmetro input não é um JSON válido.",
  unknownProcedure: (path: string) => `Procedimento inexistente: "${path}".`,
  wrongMethod: "Método HTTP não aceito por este procedimento: consultas usam GET e alterações usam POST.",
  unsupportedContentType: "Tipo de conteúdo não aceito: envie application/json.",
  payloadTooLarge: "Requisição grande demais para ser lida.",
  badRequest: "Requisição inválida.",
  badHost: "Requisição inválida: o cabeçalho Host não é um endereço válido.",
  // The same refusals outside /trpc (uploads, files, pages): not tRPC's wording (decision 225).
  unreadableBody: "Não foi possível ler o corpo da requisição: não é um JSON válido.",
  unsupportedBody: "Tipo de conteúdo não aceito neste endereço.",
} as const;

export const formatMessages = {
  cpfInvalid: "CPF inválido",
  cepInvalid: "CEP inválido",
  phoneInvalid: "Telefone inválido. Use formato (XX) XXXXX-XXXX",
  emailInvalid: "Email inválido",
  nameRequired: "Nome é obrigatório",
  tooLong: (max: number) => `Máximo de ${max} caracteres`,
  invalidCharacter: "O texto contém um caractere inválido",
  dateInvalid: "Data inválida",
} as const;

/** Generic upload answers (each upload rule brings its own size and type messages). */
export const uploadMessages = {
  noFile: "Nenhum arquivo recebido. Selecione um arquivo e tente novamente.",
  oneFileOnly: "Envie um arquivo por vez.",
  badFileName: "Nome de arquivo inválido. Renomeie o arquivo e tente novamente.",
  malformed: "Não foi possível ler o arquivo enviado.",
  uploadFailed: "Não foi possível salvar o arquivo. Tente novamente.",
  imageTooManyPixelsTitle: "Imagem grande demais",
  imageTooManyPixelsDescription: "A imagem tem dimensões grandes demais (máximo de 40 megapixels). Reduza a imagem e tente novamente.",
} as const;

/** Words every area shares. */
export const commonUi = {
  loading: "Carregando",
  datePlaceholder: "dd/mm/aaaa",
  /** The accessible name of a toast's close button. */
  closeToast: "Fechar aviso",
  clearDate: "Limpar data",
  clearFile: "Remover arquivo",
  closeDialog: "Fechar",
  /** Names of a pagination's arrow buttons. */
  pagination: { first: "Primeira página", previous: "Página anterior", next: "Próxima página", last: "Última página" },
} as const;
