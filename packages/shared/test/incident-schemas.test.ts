import { describe, expect, it } from "vitest";
import { accessLogMessages, incidentInput, incidentUpdateFields } from "../src";

const valid = {
  title: "Acesso indevido",
  detectedAt: "2026-11-20T10:00:00Z",
  windowFrom: "2026-11-19T10:00:00Z",
  windowTo: "2026-11-20T09:00:00Z",
  nature: "Uma planilha foi enviada ao endereço errado.",
  accountsAffected: 3,
  childrenAffected: 2,
  measures: "Pedimos a exclusão ao destinatário.",
};

describe("incident register dates (found by the hostile-input sweep: year 199816 reached PostgreSQL)", () => {
  it("takes a real date", () => {
    expect(incidentInput.safeParse(valid).success).toBe(true);
  });

  it("refuses dates outside 2000–2100 in Portuguese, on create and on edit", () => {
    for (const at of [new Date("+199816-03-25T07:43:26.950Z"), new Date("1899-12-31T00:00:00Z"), "2100-01-02T00:00:00Z"]) {
      const created = incidentInput.safeParse({ ...valid, detectedAt: at });
      expect(created.success).toBe(false);
      expect(created.error?.issues[0]?.message).toBe(accessLogMessages.incidentDateInvalid);
      const edited = incidentUpdateFields.safeParse({ anpdCommunicatedAt: at });
      expect(edited.success).toBe(false);
      expect(edited.error?.issues[0]?.message).toBe(accessLogMessages.incidentDateInvalid);
    }
  });
});
