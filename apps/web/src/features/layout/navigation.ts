import { layoutMessages as m } from "@elo/shared";
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
