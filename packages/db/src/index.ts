export * from "./client";
export * from "./types";
export { migrationsFolder } from "./paths";
export * as schema from "./schema/index";
export { seedReference } from "./seed/reference";
export { foldSql, slugSql } from "./fold";
export { pgliteExtensions } from "./pglite-extensions";
export { countedPool, type PoolStats } from "./pool-count";
export { isTypeFetchFailure, surviveTypeFetchFailures } from "./type-fetch-failure";
