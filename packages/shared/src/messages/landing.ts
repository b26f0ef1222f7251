/** Texts of the two landing pages (spec 1 §2, spec 2 §2.12). */

export const CONTACT_EMAIL = "contato@eloescolar.com.br";

export interface FaqItem {
  question: string;
  answer: string;
}

/** The parents' FAQ: 9 questions written from the rules of spec 1 §1, one on verified enrollments (issue 21), one on who sees a child's data (issue 27). */
export const PARENT_FAQ: FaqItem[] = [
  {
    question: "O que é o Elo Escolar?",
    answer:
      "É uma rede colaborativa entre escolas particulares e instituições de ensino complementar. A escola do seu filho apoia você a conseguir descontos na mensalidade de outras instituições, como escolas de idiomas, clubes e cursos de tecnologia. Não é um site de bolsas de estudo.",
  },
  {
    question: "Quanto custa para as famílias?",
    answer: "Nada. A conta para pais e responsáveis é gratuita: basta se cadastrar, completar os dados do aluno e enviar o comprovante de matrícula.",
  },
  {
    question: "Meu filho estuda em escola pública. Posso participar?",
    answer:
      "A rede atende alunos de escolas particulares. Alunos de escola pública podem participar quando estão matriculados em uma atividade ou curso pago; nesse caso, marque essa opção em Meus dados e envie o comprovante dessa matrícula.",
  },
  {
    question: "Há benefícios para faculdade ou ensino superior?",
    answer: "Não. O Elo Escolar atende somente a educação básica (educação infantil, ensino fundamental e ensino médio) e os cursos livres.",
  },
  {
    question: "Que tipo de benefício posso conseguir?",
    answer: "Por enquanto, apenas descontos na mensalidade. Cada benefício mostra o percentual, o valor com desconto, por quanto tempo ele vale e quantas vagas restam.",
  },
  {
    question: "Por que não vejo descontos de escolas do mesmo tipo da escola do meu filho?",
    answer:
      "Porque uma instituição só pode oferecer benefícios a alunos de instituições de outro segmento. Assim, uma escola de educação básica apoia descontos em idiomas, clubes ou tecnologia, e não em outra escola concorrente.",
  },
  {
    question: "A escola do meu filho ainda não está na rede. E agora?",
    answer: "Você pode cadastrá-la mesmo assim. Em Meus dados, procure a escola pelo estado, cidade e bairro e, se ela não aparecer, use a opção de cadastrar escola.",
  },
  {
    question: "Como uso o desconto depois de reservar?",
    answer:
      "Ao aproveitar um benefício você recebe um voucher, com um código e um QR code (na tela de confirmação, em Meu Painel de Benefícios e no e-mail). Apresente-o na secretaria da instituição antes do início das aulas e, quando o benefício indicar um prazo (\"Apresente o voucher em até N dias\"), dentro dele: depois do prazo ou do fim da validade, o voucher expira e a vaga volta para outras famílias. O voucher não é uma confirmação de matrícula, e todas as mensalidades são pagas diretamente à escola.",
  },
  {
    question: "Mudei de ideia. Posso desistir do voucher?",
    answer:
      "Sim. Em Meu Painel de Benefícios, use 'Desistir do voucher' e confirme. A vaga volta para outras famílias e a desistência não pode ser desfeita. Se a escola cancelar o seu voucher, você recebe um e-mail com o motivo.",
  },
  {
    question: "O benefício está esgotado. Ainda tenho chance?",
    answer:
      "Sim. Use 'Entrar na lista de espera' no cartão do benefício. Quando uma vaga abrir, a primeira família da lista recebe um e-mail e a vaga fica reservada só para ela por 48 horas; depois disso, passa para a próxima. Você acompanha sua posição em Meu Painel de Benefícios.",
  },
  {
    question: "O que é matrícula verificada?",
    answer:
      "É a confirmação, feita pela própria escola do seu filho (ou pela equipe Elo Escolar, quando a escola ainda não tem equipe na rede), de que o comprovante de matrícula que você enviou é verdadeiro. Algumas instituições só oferecem benefícios a alunos com matrícula verificada. A verificação vale até o fim de fevereiro do ano seguinte; em janeiro pedimos o comprovante do novo ano letivo. Vouchers já emitidos continuam valendo.",
  },
  {
    question: "Quem pode ver os dados do meu filho?",
    answer:
      "Só a escola que o comprovante de matrícula indica (para verificar a matrícula), a instituição cujo benefício você pediu (ela vê o voucher no balcão e na lista de vouchers) e, sempre com um motivo declarado, a administração do Elo Escolar — que avisa você por e-mail a cada abertura do comprovante. Em Privacidade e LGPD você vê cada acesso, inclusive cada vez que seu nome aparece numa lista da escola ou da administração (quem, de qual instituição, quando e para quê), e com quem seus dados foram compartilhados, e pode baixar tudo. Se você excluir a conta, trocar o comprovante ou mudar a escola do aluno, avisamos as escolas que o abriram para descartar cópias.",
  },
  {
    question: "Tenho outra dúvida. Como falo com vocês?",
    answer: `Escreva para ${CONTACT_EMAIL}. Respondemos todas as dúvidas por e-mail.`,
  },
];

/** The schools' FAQ on /para-escolas (spec 2 §1 rules). */
export const SCHOOL_FAQ: FaqItem[] = [
  {
    question: "Quem pode participar da rede?",
    answer:
      "Escolas particulares de educação básica (educação infantil, ensino fundamental e ensino médio) e instituições de ensino complementar: escolas de idiomas, clubes, escolas de esportes e artes, cursos de tecnologia e cursos livres. O ensino superior não é atendido.",
  },
  {
    question: "Que benefícios minha escola pode oferecer?",
    answer:
      "Descontos na mensalidade de uma turma, por enquanto. Você define o percentual, a validade, o número de vagas, o alcance (bairro, cidade ou toda a plataforma) e, se quiser, um prazo para a família apresentar o voucher, e pode pausar o benefício quando quiser.",
  },
  {
    question: "Posso oferecer benefícios para alunos de escolas concorrentes?",
    answer: "Não. Uma instituição só oferece benefícios a alunos de instituições de outro segmento. Por isso a rede é colaborativa: ninguém disputa os alunos do parceiro.",
  },
  {
    question: "O Elo Escolar é um site de bolsas?",
    answer: "Não. É uma rede colaborativa: cada escola ajuda seus alunos a conseguir benefícios nas instituições parceiras e recebe alunos novos delas.",
  },
  {
    question: "Quanto custa?",
    answer:
      "O plano Bronze é gratuito. Os planos Silver e Gold, que permitem receber alunos de outras instituições com os seus benefícios, estão com assinatura 100% gratuita por tempo limitado. Cancele quando quiser.",
  },
  {
    question: "O que é 'Exigir matrícula verificada'?",
    answer:
      "Cada escola da rede confirma, em 'Confirmar matrículas', os comprovantes de matrícula dos seus próprios alunos. Ao marcar 'Exigir matrícula verificada' em um benefício, só poderão aproveitá-lo famílias cuja matrícula foi confirmada pela escola do aluno e vale para o ano letivo atual (até o fim de fevereiro do ano seguinte). Na validação do voucher você vê quem verificou a matrícula e quando.",
  },
  {
    question: "Como recebo o aluno que reservou um benefício?",
    answer:
      "A família apresenta o voucher na secretaria antes do início das aulas; em Validar vouchers você digita o código ou usa 'Ler QR code' para lê-lo com a câmera do celular, confere os dados e confirma a utilização. A reserva não é a confirmação da matrícula, e a mensalidade é paga diretamente à sua escola, sem intermediários.",
  },
  {
    question: "E se a família não aparecer ou desistir?",
    answer:
      "Cancele o voucher em Validar vouchers escolhendo o motivo (desistência, não matriculado, dados incorretos ou outro); a família recebe um e-mail. Vouchers não apresentados expiram sozinhos no fim da validade ou do prazo que você definiu. Em todos os casos a vaga volta para o benefício.",
  },
  {
    question: "E quando as vagas acabam?",
    answer:
      "As famílias interessadas entram na lista de espera do benefício, e você vê quantas esperam em cada um. Cada vaga que volta, ou que você acrescenta, é oferecida primeiro à próxima família da lista, que tem 48 horas para aproveitá-la.",
  },
];

export const landingMessages = {
  parentsHeroTitle: "Descontos nas atividades do seu filho, com o apoio da escola dele",
  parentsHeroImageAlt: "Uma mãe e o filho de mãos dadas, ligados por um elo à escola",
  parentsHeroText:
    "O Elo Escolar conecta a escola do seu filho a escolas de idiomas, clubes, cursos de tecnologia e muito mais. Cadastre-se de graça e aproveite descontos exclusivos na mensalidade.",
  login: "Efetuar login",
  signup: "Criar conta",
  signupFree: "Criar conta grátis",
  howItWorks: "Como funciona",
  parentSteps: [
    { title: "Cadastre-se", text: "Crie sua conta gratuita e informe a escola em que seu filho estuda." },
    { title: "Escolha a instituição", text: "Veja os benefícios de instituições parceiras de outros segmentos perto de você." },
    { title: "Aproveite o benefício", text: "Reserve o desconto, receba o voucher e apresente na secretaria antes das aulas." },
  ],
  useCasesTitle: "Para cada fase e cada interesse",
  useCases: [
    { title: "Educação básica", text: "Da educação infantil ao ensino médio: a escola regular do seu filho faz parte da rede.", image: "/illustrations/use-basic.svg", alt: "Ilustração de livros e lápis sobre uma mesa escolar" },
    { title: "Escolas de idiomas", text: "Inglês, espanhol e outros idiomas com desconto na mensalidade.", image: "/illustrations/use-languages.svg", alt: "Ilustração de balões de conversa em idiomas diferentes" },
    { title: "Qualquer atividade", text: "Natação, música, robótica, esportes e artes: o que seu filho gosta de fazer.", image: "/illustrations/use-activities.svg", alt: "Ilustração de uma bola, uma nota musical e uma engrenagem" },
  ],
  faqTitle: "Perguntas frequentes",
  ctaTitle: "Comece agora, é grátis",
  ctaText: "Em poucos minutos você cadastra a família e já vê os benefícios disponíveis.",
  bannerTitle: "Destaque da rede",
  bannerUpTo: (pct: string, className: string) => `${pct}% de desconto em ${className}`,
  bannerText: "Cadastre-se grátis e veja os benefícios disponíveis para o seu filho.",
  bannerCta: "Quero aproveitar",
  bannerClose: "Fechar",
  schoolsHeroTitle: "O benefício que faltava na sua escola.",
  schoolsHeroImageAlt: "Uma escola e uma escola de idiomas ligadas por um elo, com alunos indo de uma para a outra",
  schoolsHeroText:
    "Ofereça às famílias da sua escola descontos em instituições parceiras e receba alunos novos delas. Uma rede colaborativa entre escolas e cursos de segmentos diferentes.",
  schoolSignup: "Cadastrar minha escola",
  schoolSteps: [
    { title: "Cadastre sua instituição", text: "Crie a conta da escola e vincule-a ao seu perfil." },
    { title: "Crie sua estratégia de descontos", text: "Use o cadastro avançado para publicar benefícios por turma (requer um plano pago)." },
    { title: "Gerencie e apoie a jornada do aluno", text: "Acompanhe as reservas, confirme os vouchers e veja os resultados." },
  ],
  claimTitle: "Conquistar um aluno novo pode custar até 7 vezes mais do que manter um aluno atual.",
  claimText: "Com o Elo Escolar, sua escola oferece um benefício a mais para quem já estuda nela e abre as portas para alunos das instituições parceiras.",
  plansTitle: "Planos",
  featureIncluded: "Incluído",
  featureNotIncluded: "Não incluído",
  plansText: "Cancele quando quiser. Você paga apenas o valor mensal.",
  choose: "Escolher",
  perMonth: "/mês no plano anual",
  /** Read before the struck-through price by screen readers (the strike itself is not announced). */
  formerPrice: "De ",
  free: "Grátis",
  planFeatures: {
    own: "Seus alunos ganham benefícios em instituições complementares",
    others: "Alunos de outras instituições ganham benefícios na sua escola",
    banner: "Destaque no banner da página inicial",
    unlimited: "Uso ilimitado",
  },
  contactTitle: "Fale com a gente",
  contactText: "Dúvidas sobre a plataforma, planos ou sua conta? Envie uma mensagem.",
  contactSubject: "Assunto",
  contactSubjectPlaceholder: "Selecione um assunto",
  contactName: "Nome",
  contactEmail: "Email",
  contactMessage: "Mensagem",
  contactSend: "Enviar mensagem",
} as const;
