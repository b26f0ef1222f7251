import { describe, expect, it } from "vitest";
import { accountMenu } from "../src/features/layout/account-menu";
import { avatarLetter, topLinks } from "../src/features/layout/navigation";
import { homePathFor } from "../src/lib/guards";

const parent = { email: "p@x.com.br", isAdmin: false, profileType: "parent" };
const institution = { email: "i@x.com.br", isAdmin: false, profileType: "institution" };
const admin = { email: "a@x.com.br", isAdmin: true, profileType: "parent" };

describe("landing paths and header menus by role and profile", () => {
  it("lands admin on /admin-escolas, institution on /home-instituicao, others on /home", () => {
    expect(homePathFor(admin)).toBe("/admin-escolas");
    expect(homePathFor(institution)).toBe("/home-instituicao");
    expect(homePathFor(parent)).toBe("/home");
    expect(homePathFor({ isAdmin: false, profileType: null })).toBe("/home");
    expect(homePathFor(null)).toBe("/");
  });

  it("shows the spec's menu items per role", () => {
    expect(accountMenu(admin).map((i) => i.label)).toEqual(["Gerenciar escolas"]);
    expect(accountMenu(parent).map((i) => i.label)).toEqual(["Página inicial", "Painel de benefícios", "Meus dados", "Adicionar escola"]);
    expect(accountMenu(institution).map((i) => i.label)).toEqual(["Página inicial", "Validar vouchers", "Meus dados", "Dados da escola", "Cadastrar benefícios", "Confirmar matrículas", "Gerenciar planos"]);
    expect(accountMenu(institution)[1]!.to).toBe("/painel-escola");
    expect(accountMenu(parent)[1]!.to).toBe("/painel-pais");
    expect(topLinks(null)[0]).toEqual({ label: "Para pais", to: "/" });
    expect(topLinks(institution)[0]).toEqual({ label: "Página inicial", to: "/home-instituicao" });
  });

  it("falls back from name to e-mail to 'U' for the avatar letter", () => {
    expect(avatarLetter("maria silva", "x@y.com")).toBe("M");
    expect(avatarLetter("  ", "joao@y.com")).toBe("J");
    expect(avatarLetter(null, null)).toBe("U");
  });
});
