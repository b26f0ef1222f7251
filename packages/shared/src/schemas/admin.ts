import { z } from "zod";
import { LIMITS } from "../constants";
import { adminMessages, adminQueueMessages } from "../messages/admin";
import { accessLogMessages } from "../messages/access-log";
import { adminAccessPurposeInput, ticketWhenSupport } from "./verification";
import { id, optionalCep, optionalPhone, optionalText, text } from "./fields";

/** Rows per page of the admin school grid. */
export const ADMIN_SCHOOLS_PAGE_SIZE = 24;
/** Rows per page of the admin parents table. */
export const ADMIN_PARENTS_PAGE_SIZE = 20;
/** Rows the client sends per import call (the progress bar advances per chunk). */
export const CSV_IMPORT_CHUNK = 25;


const PAGE_MAX = 100_000;
const PAGE_SIZE_MAX = 100;
const badPage = adminMessages.invalidPage(PAGE_MAX);
const badPageSize = adminMessages.invalidPageSize(PAGE_SIZE_MAX);
/** A list's page and page size, refused in Portuguese when out of range. */
const listPaging = (defaultSize: number) => ({
  page: z.number(badPage).int(badPage).min(1, badPage).max(PAGE_MAX, badPage).default(1),
  pageSize: z.number(badPageSize).int(badPageSize).min(1, badPageSize).max(PAGE_SIZE_MAX, badPageSize).default(defaultSize),
});

export const adminSchoolListInput = z
  .object({
    search: text().trim().max(200).default(""),
    uf: text().trim().toUpperCase().length(2).nullish(),
    cityId: id.nullish(),
    categoryId: id.nullish(),
    origin: z.enum(["parent_request"]).nullish(),
    ...listPaging(ADMIN_SCHOOLS_PAGE_SIZE),
  })
  .strict();
export type AdminSchoolListInput = z.input<typeof adminSchoolListInput>;

/** The admin's edit form: name required; ids resolved and checked by the server. */
export const adminSchoolUpdateInput = z
  .object({
    id: z.uuid(),
    name: text().trim().min(1, adminMessages.schoolNameRequired).max(200),
    categoryId: id.nullish(),
    modalityId: id.nullish(),
    stateId: id.nullish(),
    cityId: id.nullish(),
    neighborhoodId: id.nullish(),
    address: optionalText(300),
    phone: optionalPhone,
    whatsapp: optionalPhone,
    cep: optionalCep,
  })
  .strict();
export type AdminSchoolUpdateInput = z.input<typeof adminSchoolUpdateInput>;

export const schoolIdInput = z.object({ id: z.uuid() }).strict();

/** An admin hides a school from the public pages (or shows it again), whatever its own switch says (issue 26). */
export const adminSchoolPublicInput = z.object({ id: z.uuid(), hidden: z.boolean() }).strict();

export const schoolMergeInput = z
  .object({ sourceId: z.uuid(), targetId: z.uuid() })
  .strict()
  .refine((v) => v.sourceId !== v.targetId, { message: adminQueueMessages.mergeSameSchool, path: ["targetId"] });

export const membershipDecisionInput = z.object({ id: z.uuid() }).strict();

export const adminParentsListInput = z
  .object({
    search: text().trim().max(200).default(""),
    ...listPaging(ADMIN_PARENTS_PAGE_SIZE),
    // The table shows parents' names, e-mails and children: a stated purpose, as to open a proof (issue 27, decision 192).
    ...adminAccessPurposeInput,
  })
  .strict()
  .refine(ticketWhenSupport, { message: accessLogMessages.ticketRequired, path: ["ticket"] });

/** The ten columns of the CSV template (spec 2 §9), in order. */
export const CSV_COLUMNS = ["name", "categoria", "modalidade", "city", "uf", "neighborhood", "address", "phone", "whatsapp", "cep"] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

const cell = text().max(500).default("");
/** One CSV row as read from the file (text cells, not yet resolved). */
export const csvRawRow = z
  .object({
    index: z.number().int().min(1).max(LIMITS.csvMaxRows + 1),
    name: cell,
    categoria: cell,
    modalidade: cell,
    city: cell,
    uf: cell,
    neighborhood: cell,
    address: cell,
    phone: cell,
    whatsapp: cell,
    cep: cell,
  })
  .strict();
export type CsvRawRow = z.infer<typeof csvRawRow>;

export const CSV_ROW_STATUSES = ["valid", "warning", "invalid"] as const;
export type CsvRowStatus = (typeof CSV_ROW_STATUSES)[number];

export const csvImportInput = z
  .object({ rows: z.array(csvRawRow).min(1, adminMessages.csvNoSelection).max(100) })
  .strict();

/** 'Reenviar' on the admin's Operação page: an outbox row. */
export const outboxIdInput = z.object({ id: z.uuid() }).strict();
export type OutboxIdInput = z.infer<typeof outboxIdInput>;
