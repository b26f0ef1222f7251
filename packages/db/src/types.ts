import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index";

/** The Drizzle database, whichever driver (PGlite or postgres.js) is behind it. Transactions fit too. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = "pglite" | "postgres";
