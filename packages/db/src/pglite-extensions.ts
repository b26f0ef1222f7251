import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * The PostgreSQL contrib extensions the migrations create (pg_trgm for the marketplace search,
 * decision 170): PGlite needs their builds handed to PGlite.create. Real PostgreSQL has them from
 * its contrib package.
 */
export const pgliteExtensions = { pg_trgm };
