// Its own module: the marketplace (/home) shows these, and loads no other authentication text (decision 082).

/** E-mail confirmation (issue 21): the banner, the link's page and the refusals that need it. */
export const emailConfirmationMessages = {
  bannerTitle: "Confirme seu e-mail",
  bannerText: (email: string) => `Enviamos um link de confirmação para ${email}. Abra o link para reservar benefícios e criar tokens de API.`,
  resendButton: "Reenviar e-mail",
  resentTitle: "E-mail enviado!",
  resentDescription: "Verifique sua caixa de entrada (e a pasta de spam) e abra o link de confirmação.",
  alreadyConfirmed: "Seu e-mail já está confirmado.",
  tooManyTitle: "Muitos envios",
  tooManyDescription: (minutes: number) => `Você já pediu vários e-mails de confirmação. Tente novamente em ${minutes} minuto(s).`,
  checkingLink: "Verificando link de confirmação...",
  confirmedTitle: "E-mail confirmado!",
  confirmedDescription: "Obrigado! Agora você pode reservar benefícios.",
  invalidLinkTitle: "Link inválido ou expirado",
  invalidLinkDescription: "O link de confirmação vale por 24 horas e só pode ser usado uma vez. Peça um novo e-mail.",
  requiredTitle: "Confirme seu e-mail",
  requiredDescription: "Para continuar, confirme seu e-mail pelo link que enviamos. Não recebeu? Use 'Reenviar e-mail'.",
  claimNeedsConfirmation: "Para reservar um benefício, confirme primeiro o seu e-mail pelo link que enviamos.",
  tokensNeedConfirmation: "Confirme seu e-mail para criar tokens de API.",
  goHome: "Ir para o início",
  goLogin: "Entrar",
} as const;
