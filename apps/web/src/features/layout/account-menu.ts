import { layoutMessages as m, schoolUi, verificationMessages } from "@elo/shared";
import { homePathFor } from "../../lib/guards";
import type { NavItem, NavUser } from "./navigation";

// Only the avatar menu and the phone drawer use this: it loads with them, after the first paint, and
// keeps the school and verification texts out of the first-load JavaScript (decision 082).

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
