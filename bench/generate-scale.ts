/**
 * Fills a PostgreSQL database (DATABASE_URL) with a realistic network at scale:
 *   npm run db:generate-scale -- --schools 20000 --parents 200000 [--benefits N] [--vouchers N] [--seed N]
 * Migrates and loads the reference data first, so a fresh empty database is enough.
 */
import { openDatabase, seedReference } from "@elo/db";
import postgres, { type Sql } from "postgres";
import { hashPassword } from "../apps/server/src/auth/password";
import { generateBenefits, generateVouchers } from "./scale/benefits";
import { parseScaleArgs, type ScaleOptions } from "./scale/options";
import { generateParents, generateStaff } from "./scale/people";
import { generateSchools, preparePlaces } from "./scale/schools";

export interface ScaleReport {
  options: Omit<ScaleOptions, "password">;
  counts: Record<string, number>;
  steps: Record<string, number>;
  totalSeconds: number;
}

/** Generates the whole world in one transaction; returns counts and the time of each step. */
export async function generateScale(url: string, opts: ScaleOptions, log: (line: string) => void = console.log): Promise<ScaleReport> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  const counts: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await fn();
    steps[name] = Math.round(performance.now() - t0) / 1000;
    log(`  ${name.padEnd(28)} ${steps[name]!.toFixed(1).padStart(6)} s`);
    return result;
  };

  await step("migrate + reference data", async () => {
    const handle = await openDatabase({ url, poolMax: 1 });
    await handle.migrate();
    await seedReference(handle.db);
    await handle.close();
  });

  const sql = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 5 });
  try {
    const [{ n }] = await sql<[{ n: number }]>`select count(*)::int as n from schools`;
    if (n > 100) throw new Error(`the database already has ${n} schools: generate into a fresh database`);
    const passwordHash = await hashPassword(opts.password);
    await sql.begin(async (tx) => {
      const t = tx as unknown as Sql;
      await t`set local synchronous_commit = off`;
      // Bulk load: the rows are consistent by construction, so a superuser skips the per-row
      // foreign-key triggers (about a million checks at full scale).
      const [{ superuser }] = await t<[{ superuser: boolean }]>`select rolsuper as superuser from pg_roles where rolname = current_user`;
      if (superuser) await t`set local session_replication_role = replica`;
      const places = await step("places", () => preparePlaces(t, opts));
      counts.places = places.length;
      Object.assign(counts, await step("schools + plans", () => generateSchools(t, opts, places)));
      counts.staff = await step("staff (approved)", () => generateStaff(t, passwordHash));
      Object.assign(counts, await step("benefits", () => generateBenefits(t, opts)));
      Object.assign(counts, await step("parents + enrollments", () => generateParents(t, opts, passwordHash)));
      Object.assign(counts, await step("vouchers + claims", () => generateVouchers(t, opts)));
      // The triggers that keep the marketplace's read model were skipped with the others (decision 145).
      counts.marketplaceOffers = await step("marketplace read model", async () => {
        await t`select marketplace_offers_rebuild()`;
        const [{ n }] = await t<[{ n: number }]>`select count(*)::int as n from marketplace_offers`;
        return n;
      });
    });
    await step("vacuum analyze", () => sql`vacuum analyze`.then(() => undefined));
  } finally {
    await sql.end({ timeout: 5 });
  }
  const { password: _password, ...shown } = opts;
  return { options: shown, counts, steps, totalSeconds: Math.round(performance.now() - started) / 1000 };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is required (a PostgreSQL database; the generator never runs on PGlite).");
    process.exit(1);
  }
  try {
    const opts = parseScaleArgs(process.argv.slice(2));
    console.log(`Generating ${opts.schools} schools, ${opts.benefits} benefits, ${opts.parents} parents, ${opts.vouchers} vouchers...`);
    const report = await generateScale(url, opts);
    console.log(`Done in ${report.totalSeconds.toFixed(1)} s:`, report.counts);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
