import { z } from "zod";
import { ENROLLMENT_PERIODS, LIMITS } from "../constants";
import { profileMessages } from "../messages/profile";
import { calendarDate, id, optionalCep, optionalCpf, optionalPhone, optionalText, text, todayInBrazil, uuid } from "./fields";

/** The parent's guardian and student data (/meus-dados). The full name is read-only and not here. */
export const parentProfileInput = z
  .object({
    phone: optionalPhone,
    relationshipType: optionalText(60),
    studentName: optionalText(LIMITS.nameMax),
    studentBirthDate: calendarDate(profileMessages.birthDateInvalid)
      // Checked at parse time, so the web form and the server agree on "today".
      .refine((v) => v <= todayInBrazil(), profileMessages.birthDateInFuture)
      .nullish()
      .transform((v) => v ?? null),
    studentCpf: optionalCpf,
    studentAddress: optionalText(200),
    studentAddressComplement: optionalText(100),
    studentNeighborhood: optionalText(100),
    studentZipCode: optionalCep,
    publicSchoolPaidActivity: z.boolean(),
  })
  .strict();
export type ParentProfileInput = z.input<typeof parentProfileInput>;

/** 'Salvar escola' on the main tab. */
export const saveMainSchoolInput = z.object({ schoolId: uuid.nullish() }).strict();

/** The 'Cadastrar escola' dialog; blank fields are refused by the handler with the spec's toasts. */
export const requestSchoolInput = z
  .object({
    name: text().max(150).default(""),
    stateId: id.nullish(),
    cityId: id.nullish(),
    neighborhoodId: id.nullish(),
    /** "main" links a newly created school to the profile; an enrollment tab only selects it. */
    target: z.enum(["main", "enrollment"]).default("main"),
  })
  .strict();

/** 'Salvar escola' on an other-enrollment tab: updates that enrollment, or adds one. */
export const saveEnrollmentSchoolInput = z.object({ id: uuid.nullish(), schoolId: uuid.nullish() }).strict();

/** The /add-escola form (adds when `id` is absent, edits otherwise). */
export const enrollmentInput = z
  .object({
    id: uuid.nullish(),
    schoolId: uuid.nullish(),
    enrollmentNumber: optionalText(50),
    period: z.enum(ENROLLMENT_PERIODS).nullish().transform((v) => v ?? null),
    classNumber: optionalText(50),
    startDate: calendarDate(profileMessages.startDateInvalid).nullish().transform((v) => v ?? null),
    endDate: calendarDate(profileMessages.endDateInvalid).nullish().transform((v) => v ?? null),
    notes: optionalText(1000),
  })
  .strict()
  .refine((v) => !v.startDate || !v.endDate || v.startDate <= v.endDate, { message: profileMessages.enrollmentDatesOrder, path: ["endDate"] });
export type EnrollmentInput = z.input<typeof enrollmentInput>;

export const schoolsByNeighborhoodInput = z.object({ neighborhoodId: id }).strict();
