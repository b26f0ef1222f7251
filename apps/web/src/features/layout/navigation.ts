import { layoutMessages as m, schoolUi, verificationMessages } from "@elo/shared";
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
  const first = user ? { label: m.home, to: homePathFor(user) } : { label: m.forParents, to: "/" };
  const faq = user?.profileType === "institution" ? { label: m.faq, to: "/para-escolas", hash: "faq" } : { label: m.faq, to: "/", hash: "faq" };
  return [first, { label: m.forSchoolsNav, to: "/para-escolas" }, faq];
}

/** The avatar menu's items, before 'Sair'. */
export function accountMenu(user: NavUser): NavItem[] {
  if (user.isAdmin) return [{ label: m.manageSchools, to: "/admin-escolas" }];
  const institution = user.profileType === "institution";
  const items: NavItem[] = [
    { label: m.home, to: homePathFor(user) },
    // Spec 1 §2 names both 'Painel de benefícios'; for schools the desk has a name of its own (docs/decisions/117).
    institution ? { label: schoolUi.deskTitle, to: "/painel-escola" } : { label: m.benefitsPanel, to: "/painel-pais" },
    { label: m.myData, to: "/meus-dados" },
  ];
  if (institution) {
    items.push(
      { label: schoolUi.schoolDataTitle, to: "/dados-da-escola" },
      { label: m.registerBenefits, to: "/painel-de-beneficios" },
      { label: verificationMessages.pageTitle, to: "/confirmar-matriculas" },
      { label: m.managePlans, to: "/plano" },
    );
  } else {
    items.push({ label: m.addSchool, to: "/add-escola" });
  }
  return items;
}

/** The avatar's fallback letter: full name, else e-mail, else 'U'. */
export function avatarLetter(fullName: string | null | undefined, email: string | null | undefined): string {
  const source = fullName?.trim() || email?.trim() || "U";
  return source.charAt(0).toUpperCase();
}

/**
 * A link to the page already shown navigates nowhere, so the router does not reset the scroll:
 * bring the page's top back (spec 1 §2: 'Para Escolas' scrolls to the top of the school landing page).
 */
export function scrollTopIfCurrent(item: { to: string; hash?: string }) {
  if (!item.hash && window.location.pathname === item.to) window.scrollTo({ top: 0 });
}
