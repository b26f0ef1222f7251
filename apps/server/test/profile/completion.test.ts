import { describe, expect, it } from "vitest";
import { isProfileComplete, missingCompletionFields, type CompletionFields } from "../../src/routers/profile/completion";

const full: CompletionFields = {
  fullName: "Maria Souza",
  phone: "11987654321",
  relationshipType: "Mãe",
  studentName: "Ana Souza",
  studentBirthDate: "2015-03-10",
  studentCpf: "52998224725",
  studentAddress: "Rua dos Pinheiros, 100",
  studentNeighborhood: "Pinheiros",
  studentZipCode: "05422000",
  schoolName: "Colégio Horizonte",
  schoolId: "8f1c2b1e-7d1a-4a51-9a57-2f5a3f1d9c11",
};

describe("profile completion rule (spec 1 §4)", () => {
  it("is complete with every field filled", () => {
    expect(isProfileComplete(full)).toBe(true);
    expect(missingCompletionFields(full)).toEqual([]);
  });

  it.each(Object.keys(full) as (keyof CompletionFields)[])("is incomplete without %s (null or blank)", (key) => {
    expect(isProfileComplete({ ...full, [key]: null })).toBe(false);
    expect(isProfileComplete({ ...full, [key]: "   " })).toBe(false);
    expect(missingCompletionFields({ ...full, [key]: null })).toEqual([key]);
  });
});
