import { parseArgs } from "node:util";

/** How much data to generate; every count scales from the command line. */
export interface ScaleOptions {
  schools: number;
  parents: number;
  benefits: number;
  vouchers: number;
  /** Interior municipalities that get schools (capitals always do). */
  interiorCities: number;
  seed: number;
  /** Password of every generated account (one argon2id hash shared by all). */
  password: string;
}

export const FULL_SCALE = { schools: 20_000, parents: 200_000, benefits: 100_000, vouchers: 500_000 } as const;
export const BENCH_PASSWORD = "Bench#Senha2026";

/** Parses `--schools N --parents N [--benefits N] [--vouchers N] [--seed N]`; benefits and vouchers follow the schools/parents ratio of the full scale. */
export function parseScaleArgs(argv: string[]): ScaleOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      schools: { type: "string" },
      parents: { type: "string" },
      benefits: { type: "string" },
      vouchers: { type: "string" },
      seed: { type: "string" },
    },
    allowPositionals: false,
  });
  const int = (v: string | undefined, fallback: number, name: string) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  const schools = int(values.schools, FULL_SCALE.schools, "schools");
  const parents = int(values.parents, FULL_SCALE.parents, "parents");
  return {
    schools,
    parents,
    benefits: int(values.benefits, schools * 5, "benefits"),
    vouchers: int(values.vouchers, Math.round(parents * 2.5), "vouchers"),
    interiorCities: Math.max(10, Math.min(1500, Math.round(schools / 13))),
    seed: int(values.seed, 20251122, "seed"),
    password: BENCH_PASSWORD,
  };
}
