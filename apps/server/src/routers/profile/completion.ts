/** The profile fields the completion rule reads (spec 1 §4 "Profile completion"). */
export interface CompletionFields {
  fullName: string | null;
  phone: string | null;
  relationshipType: string | null;
  studentName: string | null;
  studentBirthDate: string | null;
  studentCpf: string | null;
  studentAddress: string | null;
  studentNeighborhood: string | null;
  studentZipCode: string | null;
  schoolName: string | null;
  schoolId: string | null;
}

const REQUIRED: (keyof CompletionFields)[] = [
  "fullName",
  "phone",
  "relationshipType",
  "studentName",
  "studentBirthDate",
  "studentCpf",
  "studentAddress",
  "studentNeighborhood",
  "studentZipCode",
  "schoolName",
  "schoolId",
];

/** True only when every field of the rule is filled (blank text counts as missing). */
export function isProfileComplete(p: CompletionFields): boolean {
  return REQUIRED.every((k) => {
    const v = p[k];
    return typeof v === "string" && v.trim() !== "";
  });
}

/** The fields still missing, in the rule's order (for tests and messages). */
export const missingCompletionFields = (p: CompletionFields) => REQUIRED.filter((k) => !(typeof p[k] === "string" && p[k]!.trim() !== ""));
