import { HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { createSchool } from "../support/factories/schools";
import { networkSchool } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

describe("public pages are valid HTML (issue 26)", () => {
  it("every page kind passes html-validate (the standard preset: validity, no code style)", async () => {
    const english = await networkSchool(h, { name: "Escola Válida & Cia", uf: "AM", city: "Manaus", neighborhood: "Adrianópolis", benefits: [{ className: "Inglês <básico>" }, { className: "Sem vagas", slots: 0 }] });
    await networkSchool(h, { name: "Colégio Válido", niche: "Ed. Básica", uf: "AM", city: "Manaus", neighborhood: "Centro", plan: null });
    await createSchool(h, { name: "Escola Só Nome", uf: "AM", city: "Manaus" });
    const paths = [
      "/escolas", "/escolas/am", "/escolas/am/manaus", `/escolas/am/manaus/${english.school.id}-escola-valida-cia`,
      "/escolas?q=valida", "/escolas?q=x", "/escolas?q=nadaaqui", "/nao-existe", `/escolas/am/manaus/${(await createSchool(h, { uf: "AM", city: "Manaus" })).id}-x`,
    ];
    for (const path of paths) {
      const res = await fetch(server.url + path, { redirect: "manual" });
      expect([200, 404, 410], path).toContain(res.status);
      const report = await validator.validateString(await res.text());
      const problems = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message} (${m.line}:${m.column})`));
      expect(problems, path).toEqual([]);
    }
  });
});
