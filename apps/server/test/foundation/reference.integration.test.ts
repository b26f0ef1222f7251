import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("reference router", () => {
  it("serves the 27 UFs ordered by code", async () => {
    const api = await h.caller();
    const states = await api.reference.states();
    expect(states).toHaveLength(27);
    expect(states.map((s) => s.code)).toEqual([...states.map((s) => s.code)].sort());
  });

  it("serves every municipality of a state ordered by name, and capital neighborhoods", async () => {
    const api = await h.caller();
    const sp = (await api.reference.states()).find((s) => s.code === "SP")!;
    const cities = await api.reference.cities({ stateId: sp.id });
    expect(cities.length).toBe(645);
    const names = cities.map((c) => c.name);
    // An independent pt-BR collator: accented initials sort with their base letter, not after 'Z'.
    const collator = new Intl.Collator("pt-BR", { sensitivity: "base" });
    expect(names).toEqual([...names].sort((a, b) => collator.compare(a, b)));
    const at = (n: string) => names.indexOf(n);
    expect(at("Águas de Lindóia")).toBeGreaterThan(at("Aguaí"));
    expect(at("Águas de Lindóia")).toBeLessThan(at("Bauru"));
    expect(at("Óleo")).toBeGreaterThan(at("Novo Horizonte"));
    expect(at("Óleo")).toBeLessThan(at("Olímpia"));
    expect(names.at(-1)!.startsWith("Z")).toBe(true);
    const capital = cities.find((c) => c.name === "São Paulo")!;
    const hoods = await api.reference.neighborhoods({ cityId: capital.id });
    expect(hoods.length).toBeGreaterThanOrEqual(25);
    expect(hoods.map((n) => n.name)).toContain("Pinheiros");
  });

  it("has about 5,570 municipalities in all", async () => {
    const api = await h.caller();
    let total = 0;
    for (const s of await api.reference.states()) total += (await api.reference.cities({ stateId: s.id })).length;
    expect(total).toBeGreaterThan(5560);
  });

  it("serves the five niches with modalities, positions and relationship types", async () => {
    const api = await h.caller();
    const categories = await api.reference.categories();
    expect(categories.map((c) => c.name)).toEqual(["Clubes", "Ed. Básica", "Idiomas", "Outros", "Tecnologia"]);
    const idiomas = categories.find((c) => c.name === "Idiomas")!;
    const modalities = await api.reference.modalities({ categoryId: idiomas.id });
    expect(modalities.map((m) => m.name)).toEqual(expect.arrayContaining(["Inglês", "Espanhol"]));
    expect((await api.reference.positions()).length).toBeGreaterThan(3);
    expect((await api.reference.relationshipTypes()).map((r) => r.name)).toContain("Mãe");
  });

  it("rejects bad input with a validation error", async () => {
    const api = await h.caller();
    await expect(api.reference.cities({ stateId: -1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.reference.cities({ stateId: 1, extra: 1 } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
