import path from "node:path";
import postgres from "postgres";
import { oversellCheck, type ClaimFixture } from "../lib/fixtures";
import { clientIp, load, trpcBody } from "../lib/http";
import { pgbench, pgbenchScript } from "../lib/pgbench";
import { median, passes, round } from "../lib/stats";
import { passSeconds, sessionCookie, type MeasureContext } from "./context";

/** Pgbench's voucher for pair n: unique per pair, and ending in "ZZ", which the generator never uses. */
const PGBENCH_VOUCHER = `(1000 + n % 9000)::text || '-' || chr(65 + (n / 9000 % 26)::int) || chr(65 + (n / 234000 % 26)::int) || 'ZZ'`;

/**
 * Figure 2: claim.create claims/s with 50 concurrent parents ÷ pgbench -c50 running the same
 * transaction (statements captured from the real handler, e-mail enqueue included); then zero
 * oversell: the ledger adds up, and 50 parents racing for a few slots get exactly those slots.
 */
export async function measureClaims(ctx: MeasureContext, fx: ClaimFixture) {
  const first = fx.benefits[0]!;
  const { statements, result } = await ctx.capture.record(fx.captureParent, (c) => c.claim.create({ discountId: first.id }));
  const script = pgbenchScript({
    file: path.join(ctx.workDir, "claim.sql"),
    preamble: [],
    lookupSelect: ["user_id as uid", "discount_id as did", "school_id as sid", `${PGBENCH_VOUCHER} as voucher`],
    lookupFrom: "from bench_claim_pairs where n = (select nextval('bench_claim_seq'))",
    variables: { uid: fx.captureParent, did: first.id, sid: first.schoolId, voucher: result.voucherCode },
    statements,
  });

  const B = fx.benefits.length;
  let n = 0;
  const requests = [
    {
      method: "POST",
      path: "/trpc/claim.create",
      setupRequest: (req: object) => {
        // Past the fixture's pairs (only when many claims fail fast, e.g. 429s) pairs repeat and are
        // refused as already claimed: they show up as non-2xx in the log instead of a crash.
        const k = n++ % fx.appPairs;
        const parent = fx.parents[Math.floor(k / B)]!;
        return {
          ...req,
          headers: { cookie: sessionCookie(parent.token), origin: ctx.server.url, "content-type": "application/json", "x-forwarded-for": clientIp(k) },
          body: trpcBody({ discountId: fx.benefits[k % B]!.id }),
        };
      },
    },
  ];
  const runs = await passes(ctx.warmups, ctx.passes, async (i, warmup) => {
    const seconds = passSeconds(ctx, warmup);
    const app = await load({ url: ctx.server.url, connections: 50, duration: seconds, requests });
    const sql = await pgbench({ url: ctx.databaseUrl, script: path.join(ctx.workDir, "claim.sql"), clients: 50, seconds });
    ctx.log(`    claims pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${round(app.rps, 1)} claims/s (p50 ${app.p50} ms, p99 ${app.p99} ms, non-2xx ${app.non2xx}) | pgbench ${round(sql.tps, 1)} tps (failed ${sql.failed}, aborted ${sql.aborted})`);
    return { app, sql };
  });

  // The race: every parent claims the hot benefit at the same moment.
  const race = await Promise.all(
    fx.hot.parents.map((p, i) =>
      fetch(`${ctx.server.url}/trpc/claim.create`, {
        method: "POST",
        headers: { cookie: sessionCookie(p.token), origin: ctx.server.url, "content-type": "application/json", "x-forwarded-for": clientIp(900_000 + i) },
        body: trpcBody({ discountId: fx.hot.benefitId }),
      }).then((r) => r.status),
    ),
  );
  const sql = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  const ledger = await oversellCheck(sql, fx);
  await sql.end();

  const appRate = median(runs.map((r) => r.app.rps));
  const sqlRate = median(runs.map((r) => r.sql.tps));
  return {
    ratio: round(median(runs.map((r) => r.app.rps / r.sql.tps)), 3),
    appClaimsPerSecond: round(appRate, 1),
    pgbenchTps: round(sqlRate, 1),
    p50Ms: median(runs.map((r) => r.app.p50)),
    p99Ms: median(runs.map((r) => r.app.p99)),
    appNon2xx: runs.reduce((a, r) => a + r.app.non2xx + r.app.errors, 0),
    pgbenchFailed: runs.reduce((a, r) => a + r.sql.failed + r.sql.aborted, 0),
    race: { parents: fx.hot.parents.length, slots: fx.hot.slots, succeeded: race.filter((s) => s === 200).length },
    ledger,
    zeroOversell: ledger.ok && race.filter((s) => s === 200).length === fx.hot.slots,
    statements: statements.length,
    script,
  };
}
