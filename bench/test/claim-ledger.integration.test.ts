import { readFileSync } from "node:fs";
import path from "node:path";
import type { Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlCapture } from "../lib/capture";
import { checkClaimStatements, type ClaimLedger } from "../lib/claim-ledger";
import type { ClaimFixture } from "../lib/fixtures";
import { pgbench } from "../lib/pgbench";
import { claimScript } from "../measures/claims";
import { hasPgbench, openClaimWorld, serverUrl, type ClaimWorld } from "./claim-world";

// The claim figure's baseline on real PostgreSQL with pgbench (decision 112): what counts is the
// vouchers committed, not the transactions pgbench reports.
describe.skipIf(!serverUrl || !hasPgbench)("the claim figure counts vouchers, not transactions", () => {
  let world: ClaimWorld;
  let database: ClaimWorld["database"];
  let sql: Sql;
  let capture: SqlCapture;
  let fx: ClaimFixture;
  let ledger: ClaimLedger;
  let workDir: string;
  let script: string;

  beforeAll(async () => {
    world = await openClaimWorld("ledger");
    ({ database, sql, capture, fx, ledger, workDir } = world);
    script = path.join(workDir, "claim.sql");
    await claimScript(capture, fx, ledger, script, sql);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const run = () => ledger.side(() => pgbench({ url: database.url, script, clients: 4, threads: 1, seconds: 1 }), (r) => r.connectionMs / 1000);

  it("replays the statement the app sends for a claim, which writes one voucher", async () => {
    const statements = (await capture.record(fx.captureParent, (c) => c.claim.create({ discountId: fx.benefits[1]!.id }))).statements;
    const claim = statements.find((s) => /insert into discount_transactions/.test(s.query))!;
    const oneLine = (q: string) => q.replace(/--[^\n]*/g, " ").replace(/\s+/g, " ").trim();
    // The script's claim line is the app's statement with its parameters named: same text around them.
    const skeleton = oneLine(claim.query).replace(/\$\d+/g, "§");
    const replayed = readFileSync(script, "utf8").split("\n").map((l) => l.replace(/(?<!:):(?!:)\w+/g, "§").replace(/(;| \\gset \w+)$/, ""));
    expect(replayed).toContain(skeleton);
    expect(() => checkClaimStatements(statements, 0)).toThrow(/committed 0/);
    expect(() => checkClaimStatements(statements.filter((s) => s !== claim), 1)).toThrow(/sent 0 such statements/);
  });

  it("counts each transaction that took a slot as one claim, divided by the side's wall time", async () => {
    const pass = await run();
    expect(pass.result.transactions).toBeGreaterThan(0);
    expect(pass.vouchers).toBe(pass.result.transactions);
    // Each transaction rendered its own voucher e-mail (the outbox id from its claim row, decision 210).
    const [{ unrendered }] = await sql<[{ unrendered: number }]>`select count(*)::int as unrendered from email_outbox where subject is null`;
    expect(unrendered).toBe(0);
    expect(pass.seconds).toBeGreaterThan(0.9);
    expect(pass.rate).toBeCloseTo(pass.vouchers / pass.seconds, 6);
  });

  it("does not count transactions that took no slot, though pgbench does", async () => {
    await sql`update discounts set number_of_students = 0 where id = any(${fx.benefits.map((b) => b.id)}::uuid[])`;
    const pass = await run();
    expect(pass.result.transactions).toBeGreaterThan(0);
    expect(pass.result.tps).toBeGreaterThan(0); // what the figure used to divide by
    expect(pass.vouchers).toBe(0);
    expect(pass.rate).toBe(0);

    const left = await ledger.left(0);
    expect(left.slotsLeftMin).toBe(0);
    expect(left.pgbench.ranDry).toBe(true);
    // Every voucher but the two of the captured claims (a parent outside the pairs) came from a pgbench pair.
    expect(left.pgbench.unclaimed).toBe(left.pgbench.pairs - ((await ledger.vouchers()) - 2));
  });
});
