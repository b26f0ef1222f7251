import { floorFromStats, floorLines, normalizeSql, type Floor, type FloorStatement } from "./floor-from-stats";
import type { CapturedStatement } from "./pgbench";
import { round } from "./stats";
import { addStats, NOT_LOADED, type StatementStats, type StatStatements } from "./stat-statements";

/** What results.json keeps of a figure's floor. */
export type FloorReport =
  | {
      source: "pg_stat_statements";
      /** Requests answered over the measured passes' app sides (the divisor of every calls per request). */
      requests: number;
      /** PostgreSQL's execution time per request, every statement (Σ calls/request × mean ms). */
      pgMsPerRequest: number;
      /** The same over what pgbench's transaction replays. */
      replayedMsPerRequest: number;
      statementsPerRequest: number;
      replayedPerTransaction: number;
      leftOut: { statements: number; callsPerRequest: number; shareOfTime: number };
      /** Which app side the script was built from (the first pass, warm-up or not). */
      scriptFrom: string;
      statements: FloorStatement[];
    }
  | { source: "in-process capture"; note: string };

/**
 * pg_stat_statements around each app side of a figure's passes: counters reset before the side,
 * read after it. The first pass's reading builds the pgbench script (before that pass's pgbench
 * side); the report sums the measured passes.
 */
export function floorPasses(pgss: StatStatements, captured: CapturedStatement[], log: (line: string) => void) {
  let first: Floor | null = null;
  let firstStats: StatementStats[] = [];
  let scriptFrom = "";
  const measured: Array<{ stats: StatementStats[]; requests: number }> = [];
  return {
    reset: () => pgss.reset(),
    /** Reads the side's statements; returns the floor the script is built from (the first pass's). */
    async read(requests: number, pass: number, warmup: boolean): Promise<Floor> {
      const stats = await pgss.read();
      // A side that answered nothing (a fixture run dry) has no calls per request to add.
      if (!warmup && requests > 0) measured.push({ stats, requests });
      if (!first) {
        first = floorFromStats({ stats, requests, captured });
        firstStats = stats;
        scriptFrom = `pass ${pass + 1}${warmup ? " (warm-up)" : ""}, ${requests} requests`;
        log(`    pgbench script from pg_stat_statements of ${scriptFrom}: calls/request × PostgreSQL mean time, replayed ×n`);
        for (const line of floorLines(first)) log(line);
      }
      return first;
    },
    report(): FloorReport {
      // The measured passes; the script's own pass when none answered anything.
      const passes = measured.length ? measured : [{ stats: firstStats, requests: first!.requests }];
      const requests = passes.reduce((a, m) => a + m.requests, 0);
      const floor = floorFromStats({ stats: addStats(passes.map((m) => m.stats)), requests, captured });
      // The replayed counts are the script's (the first pass's), whatever the measured passes round to.
      // By shape: pg_stat_statements keeps the text it saw first after each reset, whose spacing may differ from pass to pass.
      const script = new Map(first!.statements.map((s) => [normalizeSql(s.query), s.replayed]));
      const statements = floor.statements.map((s) => ({ ...s, replayed: script.get(normalizeSql(s.query)) ?? 0 }));
      const left = statements.filter((s) => !s.replayed);
      return {
        source: "pg_stat_statements",
        requests,
        pgMsPerRequest: round(floor.pgMsPerRequest, 4),
        replayedMsPerRequest: round(statements.reduce((a, s) => a + s.replayed * s.meanMs, 0), 4),
        statementsPerRequest: round(statements.reduce((a, s) => a + s.callsPerRequest, 0), 3),
        replayedPerTransaction: statements.reduce((a, s) => a + s.replayed, 0),
        leftOut: {
          statements: left.length,
          callsPerRequest: round(left.reduce((a, s) => a + s.callsPerRequest, 0), 4),
          shareOfTime: round(left.reduce((a, s) => a + s.shareOfTime, 0), 4),
        },
        scriptFrom,
        statements: statements.map((s) => ({ ...s, callsPerRequest: round(s.callsPerRequest, 4), meanMs: round(s.meanMs, 4), msPerRequest: round(s.msPerRequest, 4), shareOfTime: round(s.shareOfTime, 4), rowsPerCall: round(s.rowsPerCall, 2) })),
      };
    },
  };
}

export const capturedFloor = (): FloorReport => ({ source: "in-process capture", note: NOT_LOADED });

/** The floor in a figure's detail line. */
export function floorDetail(f: FloorReport, unit = "request"): string {
  if (f.source !== "pg_stat_statements") return "floor from the in-process capture (pg_stat_statements not loaded)";
  const left = f.leftOut.statements ? `; left out ${f.leftOut.statements} (${f.leftOut.callsPerRequest}/${unit}, ${round(f.leftOut.shareOfTime * 100, 1)}% of its time)` : "";
  return `PostgreSQL ${f.pgMsPerRequest} ms/${unit} in ${f.statementsPerRequest} statements/${unit} (pg_stat_statements), pgbench replays ${f.replayedPerTransaction} = ${f.replayedMsPerRequest} ms${left}`;
}
