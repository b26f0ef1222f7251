import { homePathFor } from "../../lib/guards";

export interface NavUser {
  email: string;
  isAdmin: boolean;
  profileType: string | null;
}

export interface NavItem {
  label: string;
  to: string;
  hash?: string;
}

/** The header's top links (spec 1 §2 "Header and menus"). */
export function topLinks(user: NavUser | null): NavItem[] {
  const first = user ? { label: "Página inicial", to: homePathFor(user) } : { label: "Para pais", to: "/" };
  const faq = user?.profileType === "institution" ? { label: "FAQ", to: "/para-escolas", hash: "faq" } : { label: "FAQ", to: "/", hash: "faq" };
  return [first, { label: "Para Escolas", to: "/para-escolas" }, faq];
}

/** The avatar menu's items, before 'Sair'. */
export function accountMenu(user: NavUser): NavItem[] {
  if (user.isAdmin) return [{ label: "Gerenciar escolas", to: "/admin-escolas" }];
  const institution = user.profileType === "institution";
  const items: NavItem[] = [
    { label: "Página inicial", to: homePathFor(user) },
    { label: "Painel de benefícios", to: institution ? "/painel-escola" : "/painel-pais" },
    { label: "Meus dados", to: "/meus-dados" },
  ];
  if (institution) {
    items.push(
      { label: "Dados da escola", to: "/dados-da-escola" },
      { label: "Cadastrar benefícios", to: "/painel-de-beneficios" },
      { label: "Gerenciar planos", to: "/plano" },
    );
  } else {
    items.push({ label: "Adicionar escola", to: "/add-escola" });
  }
  return items;
}

/** The avatar's fallback letter: full name, else e-mail, else 'U'. */
export function avatarLetter(fullName: string | null | undefined, email: string | null | undefined): string {
  const source = fullName?.trim() || email?.trim() || "U";
  return source.charAt(0).toUpperCase();
}
