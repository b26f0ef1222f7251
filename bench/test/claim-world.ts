import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { generateScale } from "../generate-scale";
import { createSqlCapture } from "../lib/capture";
import { claimLedger } from "../lib/claim-ledger";
import { freshDatabase } from "../lib/database";
import { claimFixture } from "../lib/fixtures";
import { findPgbench } from "../lib/pgbench";
import { parseScaleArgs } from "../scale/options";

export const serverUrl = process.env.TEST_DATABASE_URL;

export const hasPgbench = (() => {
  try {
    return Boolean(findPgbench());
  } catch {
    return false;
  }
})();

/**
 * The claim figure's world for the bench's integration tests: a fresh database on `serverUrl` with
 * a small generated network, the claim fixture, the in-process capture and the ledger.
 */
export async function openClaimWorld(tag: string) {
  const database = await freshDatabase(serverUrl!, `elo_bench_${tag}_${process.pid}_${Date.now()}`);
  await generateScale(database.url, parseScaleArgs(["--schools", "300", "--parents", "3000"]), () => {});
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const fx = await claimFixture(sql, { parents: 2800, benefits: 5, slotsEach: 1000, hotSlots: 1, hotParents: 2 });
  const capture = await createSqlCapture(database.url, "http://127.0.0.1:3000");
  const ledger = claimLedger(sql, fx);
  const workDir = mkdtempSync(path.join(tmpdir(), `elo-bench-${tag}-`));
  return {
    database,
    sql,
    fx,
    capture,
    ledger,
    workDir,
    async close() {
      await capture.close();
      await sql.end();
      await database.drop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
export type ClaimWorld = Awaited<ReturnType<typeof openClaimWorld>>;
