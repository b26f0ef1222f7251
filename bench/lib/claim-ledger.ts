import type { Sql } from "postgres";
import type { ClaimFixture } from "./fixtures";
import type { CapturedStatement } from "./pgbench";

/**
 * Counting claims as the user gets them (decision 112): a claim is a voucher committed in
 * discount_transactions for one of the fixture's benefits, whoever sent it. A pgbench transaction
 * that took no slot or repeated a pair, or an HTTP answer without a voucher, is not a claim.
 * Its statements start with the bench's mark (stat-statements.ts): pg_stat_statements' reading of
 * the app's pass leaves them out.
 */
export function claimLedger(sql: Sql, fx: ClaimFixture) {
  const ids = fx.benefits.map((b) => b.id);

  async function vouchers(): Promise<number> {
    const [{ n }] = await sql<[{ n: number }]>`/* bench */ select count(*)::int as n from discount_transactions where discount_id = any(${ids}::uuid[])`;
    return n;
  }

  /** Waits until no statement writing a voucher runs on the database and the count stops moving; returns the count. */
  async function settle(timeoutMs = 30_000): Promise<{ vouchers: number; at: number }> {
    const deadline = performance.now() + timeoutMs;
    let previous = -1;
    let quietSince = performance.now();
    for (;;) {
      const [{ running }] = await sql<[{ running: number }]>`
        /* bench */ select count(*)::int as running from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query ilike '%insert into discount_transactions%'`;
      const now = performance.now();
      const count = await vouchers();
      if (running === 0) {
        if (count === previous) return { vouchers: count, at: quietSince };
        quietSince = now; // quiet from here, unless the count still moves
      }
      previous = count;
      if (now > deadline) throw new Error(`claims still running ${timeoutMs / 1000} s after the pass`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    vouchers,
    settle,
    /**
     * Runs one side of a pass and counts what it committed. The wall time runs from the start until
     * no claim of that side is left in flight (autocannon leaves requests running when its time is up;
     * the server still commits them), minus `setupSeconds` (pgbench's own connection set-up: the
     * app's pool is already connected when its side starts).
     */
    async side<T>(run: () => Promise<T>, setupSeconds: (result: T) => number = () => 0) {
      const start = await settle();
      const t0 = performance.now();
      const result = await run();
      const end = await settle();
      const seconds = (end.at - t0) / 1000 - setupSeconds(result);
      const committed = end.vouchers - start.vouchers;
      return { result, vouchers: committed, seconds, rate: committed / seconds };
    },
    /**
     * What each side left of the fixture after the passes: its pairs, how many it handed out, how
     * many were never claimed, and the benefits' slots left. A side that handed out all its pairs ran
     * dry, and so does one that found a benefit without slots.
     */
    async left(appHandedOut: number) {
      const rows = await sql<Array<{ app: boolean; pairs: number; unclaimed: number }>>`
        select (p.n < ${fx.appPairs}) as app, count(*)::int as pairs, count(*) filter (where c.user_id is null)::int as unclaimed
        from bench_claim_pairs p left join claimed_discounts c on c.user_id = p.user_id and c.discount_id = p.discount_id
        group by 1`;
      const [seq] = await sql<[{ last: string; called: boolean }]>`select last_value::text as last, is_called as called from bench_claim_seq`;
      const [slots] = await sql<[{ min: number; total: number }]>`
        select min(number_of_students)::int as min, sum(number_of_students)::int as total from discounts where id = any(${ids}::uuid[])`;
      const side = (app: boolean, handedOut: number) => {
        const r = rows.find((x) => x.app === app) ?? { pairs: 0, unclaimed: 0 };
        return { pairs: r.pairs, handedOut, unclaimed: r.unclaimed, ranDry: handedOut >= r.pairs || slots.min <= 0 };
      };
      const pgbenchHandedOut = seq.called ? Number(seq.last) - fx.appPairs + 1 : 0;
      return { app: side(true, appHandedOut), pgbench: side(false, pgbenchHandedOut), slotsLeftMin: slots.min, slotsLeftTotal: slots.total };
    },
  };
}
export type ClaimLedger = ReturnType<typeof claimLedger>;

/** The statement that writes a voucher. */
export const isVoucherWriter = (s: CapturedStatement) => /insert\s+into\s+"?discount_transactions"?/i.test(s.query);

/**
 * The statements one claim sends, checked before pgbench replays them: exactly one writes a voucher,
 * and running them once committed exactly one. If the claim path changes (an outbox insert added to
 * the statement, a second statement), the script changes with it; if it stops writing one voucher
 * per claim, the bench stops here rather than compare different work.
 */
export function checkClaimStatements(statements: CapturedStatement[], committed: number): void {
  const writers = statements.filter(isVoucherWriter);
  if (writers.length !== 1 || committed !== 1) {
    throw new Error(`one claim should send one statement that writes a voucher and commit one voucher; it sent ${writers.length} such statements (of ${statements.length}) and committed ${committed}`);
  }
}
