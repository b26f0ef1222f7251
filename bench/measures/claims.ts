import path from "node:path";
import postgres, { type Sql } from "postgres";
import type { SqlCapture } from "../lib/capture";
import { checkClaimStatements, claimLedger, isVoucherWriter, type ClaimLedger } from "../lib/claim-ledger";
import { perUnit, profilePass } from "../lib/cpu";
import { capturedFloor, floorPasses } from "../lib/floor-passes";
import { oversellCheck, sessionId, type ClaimFixture } from "../lib/fixtures";
import { clientIp, load, trpcBody } from "../lib/http";
import { pgbench, pgbenchScript, type CapturedStatement } from "../lib/pgbench";
import { median, passes, round } from "../lib/stats";
import { NOT_LOADED, openStatStatements } from "../lib/stat-statements";
import { passSeconds, sessionCookie, type MeasureContext } from "./context";

/** Pgbench's voucher for pair n: unique per pair, and ending in "ZZ", which the generator never uses. */
const PGBENCH_VOUCHER = `(1000 + n % 9000)::text || '-' || chr(65 + (n / 9000 % 26)::int) || chr(65 + (n / 234000 % 26)::int) || 'ZZ'`;

/** The column of the claim statement's row holding its e-mail's outbox id, and pgbench's prefix for that row's variables. */
const OUTBOX_ID = "outbox_id";
const CLAIM_ROW = "claim_";
const OUTBOX_VARIABLE = `${CLAIM_ROW}${OUTBOX_ID}`;

/**
 * The handler renders the voucher e-mail into the outbox row its claim statement inserted: pgbench
 * takes that id from the claim statement's row (\gset) instead of replaying the captured claim's
 * id (whose row is already rendered: an update of nothing), so each transaction writes its own e-mail.
 */
async function outboxVariable(sql: Sql, userId: string): Promise<Record<string, string>> {
  const [outbox] = await sql<[{ id: string }?]>`/* bench */ select id::text as id from email_outbox where user_id = ${userId} order by created_at desc limit 1`;
  return outbox ? { [OUTBOX_VARIABLE]: outbox.id } : {};
}

/**
 * The pgbench script from a claim's statements, checked to hold one voucher writer, whose row is
 * kept for the statements after it; per transaction it names the next unused pgbench pair's parent,
 * session, benefit, school and a fresh voucher.
 */
export function claimFloorScript(file: string, statements: CapturedStatement[], variables: Record<string, string>) {
  checkClaimStatements(statements, 1);
  const withRow = statements.map((s) => (isVoucherWriter(s) && new RegExp(`\\b${OUTBOX_ID}\\b`).test(s.query) ? { ...s, gset: CLAIM_ROW } : s));
  return pgbenchScript({
    file,
    preamble: [],
    lookupSelect: ["user_id as uid", "session_id as sess", "discount_id as did", "school_id as sid", `${PGBENCH_VOUCHER} as voucher`],
    lookupFrom: "from bench_claim_pairs where n = (select nextval('bench_claim_seq'))",
    variables,
    // A claim that took no slot has no outbox row: \gset leaves '' and the update then matches nothing, as a refused claim writes none.
    expressions: { [OUTBOX_VARIABLE]: `nullif(:${OUTBOX_VARIABLE}, '')::uuid` },
    statements: withRow,
  });
}

/**
 * The pgbench script of the claim without pg_stat_statements: the statements one real claim.create
 * sends (captured from the handler, so the script follows the app's statement), checked to commit
 * exactly one voucher, with the parent, benefit, school, voucher and outbox row taken per
 * transaction from the next unused pgbench pair and the claim statement's row.
 */
export async function claimScript(capture: SqlCapture, fx: ClaimFixture, ledger: ClaimLedger, file: string, sql: Sql) {
  const first = fx.benefits[0]!;
  const before = await ledger.vouchers();
  const { statements, result } = await capture.record(fx.captureParent, (c) => c.claim.create({ discountId: first.id }));
  checkClaimStatements(statements, (await ledger.vouchers()) - before);
  const variables = { uid: fx.captureParent, did: first.id, sid: first.schoolId, voucher: result.voucherCode, ...(await outboxVariable(sql, fx.captureParent)) };
  return { statements, script: claimFloorScript(file, statements, variables) };
}

/**
 * One real claim sent over HTTP in-process (decision 210): every statement the request sent,
 * session lookup included, checked to commit exactly one voucher, and the values pgbench names.
 */
export async function claimRequest(capture: SqlCapture, fx: ClaimFixture, ledger: ClaimLedger, sql: Sql) {
  const first = fx.benefits[0]!;
  const parent = fx.captureSession;
  const before = await ledger.vouchers();
  const { response, statements } = await capture.inject({
    method: "POST",
    url: "/trpc/claim.create",
    headers: { cookie: sessionCookie(parent.token), origin: capture.publicUrl, "content-type": "application/json", "x-forwarded-for": clientIp(899_999) },
    payload: trpcBody({ discountId: first.id }),
  });
  if (response.statusCode !== 200) throw new Error(`the captured claim answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
  checkClaimStatements(statements, (await ledger.vouchers()) - before);
  const voucherCode = (JSON.parse(response.body) as { result: { data: { json: { voucherCode: string } } } }).result.data.json.voucherCode;
  const variables = { uid: parent.userId, sess: sessionId(parent.token), did: first.id, sid: first.schoolId, voucher: voucherCode, ...(await outboxVariable(sql, parent.userId)) };
  return { statements, variables };
}

/**
 * Figure 2: claims per second with 50 concurrent parents through claim.create ÷ the same with
 * pgbench -c50 running the same transaction (statements captured from the real handler, e-mail
 * enqueue included). Both sides count vouchers committed, with SQL after each side of each pass,
 * divided by that side's wall time (decision 112); each (parent, benefit) pair is used once, and the
 * end of the run says how many each side had left. Then zero oversell: the ledger adds up, and 50
 * parents racing for a few slots get exactly those slots. With pg_stat_statements loaded (decision
 * 210) pgbench's transaction is what PostgreSQL saw per voucher during the app's pass (session lookup
 * included), with the values of one claim sent over HTTP in-process.
 */
export async function measureClaims(ctx: MeasureContext, fx: ClaimFixture) {
  const sql = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  const pgss = await openStatStatements(ctx.databaseUrl);
  try {
    const ledger = claimLedger(sql, fx);
    const file = path.join(ctx.workDir, "claim.sql");
    let script: string | null = null;
    let scriptStatements = 0;
    let floor: ReturnType<typeof floorPasses> | null = null;
    let variables: Record<string, string> = {};
    if (pgss) {
      const claim = await claimRequest(ctx.capture, fx, ledger, sql);
      variables = claim.variables;
      floor = floorPasses(pgss, claim.statements, ctx.log);
    } else {
      ctx.log(`    ${NOT_LOADED}`);
      const claim = await claimScript(ctx.capture, fx, ledger, file, sql);
      script = claim.script;
      scriptStatements = claim.statements.length;
    }

    const B = fx.benefits.length;
    let n = 0;
    const requests = [
      {
        method: "POST",
        path: "/trpc/claim.create",
        setupRequest: (req: object) => {
          // Past the side's pairs (the fixture too small for the run) pairs repeat and are refused as
          // already claimed: no voucher, so not counted, and the end of the run reports the side ran dry.
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
      const cpuBefore = await ctx.server.probe.cpuMicros();
      const app = await ledger.side(async () => {
        await floor?.reset();
        return load({ url: ctx.server.url, connections: 50, duration: seconds, requests });
      });
      // Per voucher committed: the work the parent gets (a refused repeat costs CPU and counts nothing).
      const cpu = perUnit(((await ctx.server.probe.cpuMicros()) - cpuBefore) / 1000, app.vouchers);
      if (floor) {
        // Per voucher the app committed: each is a claim.create answered 2xx, those autocannon stopped waiting for included.
        const f = await floor.read(app.vouchers, i, warmup);
        if (script === null) {
          script = claimFloorScript(file, f.script, variables);
          scriptStatements = f.script.length;
        }
      }
      const base = await ledger.side(
        () => pgbench({ url: ctx.databaseUrl, script: file, clients: 50, seconds }),
        (r) => r.connectionMs / 1000,
      );
      const noVoucher = base.result.transactions - base.vouchers;
      ctx.log(
        `    claims pass ${i + 1}${warmup ? " (warm-up)" : ""}: app ${app.vouchers} vouchers in ${round(app.seconds)} s = ${round(app.rate, 1)}/s ` +
          `(2xx ${app.result.ok}, non-2xx ${app.result.non2xx}, errors ${app.result.errors}, p50 ${app.result.p50} ms, p99 ${app.result.p99} ms, CPU ${cpu} ms/voucher) | ` +
          `pgbench ${base.vouchers} vouchers in ${round(base.seconds)} s = ${round(base.rate, 1)}/s (transactions ${base.result.transactions}` +
          `${noVoucher ? `, ${noVoucher} of them without a voucher` : ""}, failed ${base.result.failed}, aborted ${base.result.aborted}; its own tps ${round(base.result.tps, 1)})`,
      );
      return { app, base, ratio: app.rate / base.rate, cpu };
    });
    // One more pass under the profiler, on pairs not handed out yet (it counts no figure).
    if (ctx.profiles !== false) await profilePass(ctx.server.probe, "claim-create", ctx.workDir, async () => (await load({ url: ctx.server.url, connections: 50, duration: passSeconds(ctx, true), requests })).ok);
    const left = await ledger.left(n);
    ctx.log(
      `    claim fixture left: app ${left.app.pairs - left.app.handedOut} of ${left.app.pairs} pairs never handed out (${left.app.unclaimed} unclaimed), ` +
        `pgbench ${left.pgbench.pairs - left.pgbench.handedOut} of ${left.pgbench.pairs} (${left.pgbench.unclaimed} unclaimed); ` +
        `slots left ${left.slotsLeftTotal} (fewest on one benefit: ${left.slotsLeftMin})`,
    );

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
    const ledgerCheck = await oversellCheck(sql, fx);
    const raceWon = race.filter((s) => s === 200).length;

    return {
      ratioPasses: runs.map((r) => r.ratio),
      cpuPasses: runs.map((r) => r.cpu),
      ratio: round(median(runs.map((r) => r.ratio)), 3),
      appClaimsPerSecond: round(median(runs.map((r) => r.app.rate)), 1),
      pgbenchClaimsPerSecond: round(median(runs.map((r) => r.base.rate)), 1),
      p50Passes: runs.map((r) => r.app.result.p50),
      p50Ms: median(runs.map((r) => r.app.result.p50)),
      p99Ms: median(runs.map((r) => r.app.result.p99)),
      appNon2xx: runs.reduce((a, r) => a + r.app.result.non2xx + r.app.result.errors, 0),
      pgbenchWithoutVoucher: runs.reduce((a, r) => a + r.base.result.transactions - r.base.vouchers, 0),
      pgbenchFailed: runs.reduce((a, r) => a + r.base.result.failed + r.base.result.aborted, 0),
      passes: runs.map((r) => ({
        app: { vouchers: r.app.vouchers, seconds: round(r.app.seconds, 3), ok: r.app.result.ok, non2xx: r.app.result.non2xx, errors: r.app.result.errors, p50: r.app.result.p50, p99: r.app.result.p99 },
        pgbench: { vouchers: r.base.vouchers, seconds: round(r.base.seconds, 3), transactions: r.base.result.transactions, failed: r.base.result.failed, aborted: r.base.result.aborted, tps: r.base.result.tps },
      })),
      left,
      ranDry: left.app.ranDry || left.pgbench.ranDry,
      race: { parents: fx.hot.parents.length, slots: fx.hot.slots, succeeded: raceWon },
      ledger: ledgerCheck,
      zeroOversell: ledgerCheck.ok && raceWon === fx.hot.slots,
      statements: scriptStatements,
      floor: floor ? floor.report() : capturedFloor(),
      script: script ?? "",
    };
  } finally {
    await pgss?.close();
    await sql.end();
  }
}
