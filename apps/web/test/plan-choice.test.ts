import { describe, expect, it } from "vitest";
import { afterAuth, planSearch } from "../src/lib/plan-choice";

describe("the plan a visitor chose survives signing up or in (decision 062)", () => {
  it("keeps only a known plan in the search", () => {
    expect(planSearch({ plan: "gold", other: 1 })).toEqual({ plan: "gold" });
    expect(planSearch({ plan: "diamond" })).toEqual({});
    expect(planSearch({})).toEqual({});
  });

  it("sends an institution user with a plan to its confirmation", () => {
    expect(afterAuth({ isAdmin: false, profileType: "institution" }, "gold", "/home-instituicao")).toEqual({ to: "/confirmacao-plano", search: { plan: "gold" } });
  });

  it("sends everyone else home, plan or not", () => {
    expect(afterAuth({ isAdmin: false, profileType: "institution" }, undefined, "/home-instituicao")).toEqual({ to: "/home-instituicao" });
    expect(afterAuth({ isAdmin: false, profileType: "parent" }, "gold", "/home")).toEqual({ to: "/home" });
    expect(afterAuth({ isAdmin: true, profileType: "institution" }, "gold", "/admin-escolas")).toEqual({ to: "/admin-escolas" });
  });
});
