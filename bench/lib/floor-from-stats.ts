import type { CapturedStatement } from "./pgbench";
import type { StatementStats } from "./stat-statements";

/**
 * A statement's shape with its values left out, the same for the SQL a client sends (with literals
 * and `$n`) and for pg_stat_statements' normalized text (literals turned into `$n`): comments
 * dropped, every literal, `$n`, TRUE/FALSE/NULL and a minus sign before them become `?`, lower case,
 * one space between tokens. Double-quoted identifiers are kept (lower-cased).
 */
export function normalizeSql(text: string): string {
  return text
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/(?:\b[eEbBxXuU]&?)?'(?:[^']|'')*'/g, " ? ")
    .replace(/\$\d+/g, " ? ")
    .replace(/\b(?:true|false|null)\b/gi, " ? ")
    .replace(/(?<![\w$."])\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, " ? ")
    .replace(/-\s*\?/g, "?")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/\s*([(),;=<>+*/|:[\]])\s*/g, "$1")
    .replace(/;+$/, "")
    .trim();
}

/** One statement as PostgreSQL saw it during the app's pass, per request answered. */
export interface FloorStatement {
  /** pg_stat_statements' normalized text ($n in place of values). */
  query: string;
  calls: number;
  callsPerRequest: number;
  /** PostgreSQL's mean execution time of one call (ms; planning not included). */
  meanMs: number;
  /** callsPerRequest × meanMs. */
  msPerRequest: number;
  /** Its part of the pass's total execution time in the bench database, 0-1. */
  shareOfTime: number;
  rowsPerCall: number;
  /** How many times pgbench's transaction sends it (0: left out). */
  replayed: number;
  /** Why it is left out of the script, or why its replay count differs from its calls per request. */
  note?: string;
}

export interface Floor {
  requests: number;
  statements: FloorStatement[];
  /** Σ callsPerRequest × meanMs over every statement: PostgreSQL's execution time per request. */
  pgMsPerRequest: number;
  /** The same over the statements the script replays, at their replayed counts. */
  replayedMsPerRequest: number;
  /** The script's statements, in the order the request sends them, each as often as it replays. */
  script: CapturedStatement[];
}

/**
 * How many times the script sends a statement seen `callsPerRequest` times per request: the nearest
 * integer (decision 210). A statement sent on some requests only (0.5 per request) is replayed on
 * every transaction or on none; the report says so rather than mixing transactions at random.
 */
export const replayCount = (callsPerRequest: number) => Math.round(callsPerRequest);

/** Statement rows with the same normalized text (pg_stat_statements keeps one per user, query id and top-level flag) counted together. */
function mergeByShape(stats: StatementStats[]) {
  const merged = new Map<string, StatementStats>();
  for (const s of stats) {
    const key = normalizeSql(s.query);
    const m = merged.get(key);
    if (!m) merged.set(key, { ...s });
    else {
      m.calls += s.calls;
      m.totalMs += s.totalMs;
      m.rows += s.rows;
    }
  }
  return merged;
}

/**
 * The floor of one figure: pg_stat_statements' rows of the app's pass divided by the requests it
 * answered, matched by shape to the statements one captured request sent (which carry the values
 * pgbench needs). A statement the captured request did not send (work of the server's background
 * jobs, a path the capture did not take) has no values to replay: it is left out, with its calls per
 * request and its share of the time. So is one sent fewer than 0.5 times per request.
 */
export function floorFromStats(opts: { stats: StatementStats[]; requests: number; captured: CapturedStatement[] }): Floor {
  const { requests } = opts;
  if (!(requests > 0)) throw new Error("no request answered in the app's pass: no calls per request to take");
  const merged = mergeByShape(opts.stats);
  const totalMs = [...merged.values()].reduce((a, s) => a + s.totalMs, 0);
  const capturedByShape = new Map<string, CapturedStatement[]>();
  for (const st of opts.captured) {
    const key = normalizeSql(st.query);
    capturedByShape.set(key, [...(capturedByShape.get(key) ?? []), st]);
  }

  const rows = new Map<string, FloorStatement>();
  for (const [key, s] of merged) {
    const callsPerRequest = s.calls / requests;
    const meanMs = s.calls ? s.totalMs / s.calls : 0;
    const captured = capturedByShape.get(key)?.length ?? 0;
    const replayed = captured ? replayCount(callsPerRequest) : 0;
    let note: string | undefined;
    if (!captured) note = "left out: the captured request did not send it (no values to replay)";
    else if (!replayed) note = `left out: ${round(callsPerRequest)} calls per request rounds to 0`;
    else if (Math.abs(callsPerRequest - replayed) > 0.05) note = `replayed ${replayed}× for ${round(callsPerRequest)} calls per request (nearest integer)`;
    else if (replayed !== captured) note = `replayed ${replayed}× as pg_stat_statements counted; the captured request sent it ${captured}×`;
    rows.set(key, {
      query: s.query,
      calls: s.calls,
      callsPerRequest,
      meanMs,
      msPerRequest: callsPerRequest * meanMs,
      shareOfTime: totalMs ? s.totalMs / totalMs : 0,
      rowsPerCall: s.calls ? s.rows / s.calls : 0,
      replayed,
      note,
    });
  }

  // The script: the captured request's order; a statement replayed more often than captured repeats
  // its last captured instance right after it; one captured but unseen by pg_stat_statements is not sent.
  const script: CapturedStatement[] = [];
  const sent = new Map<string, number>();
  opts.captured.forEach((st, i) => {
    const key = normalizeSql(st.query);
    const want = rows.get(key)?.replayed ?? 0;
    const done = sent.get(key) ?? 0;
    const isLast = !opts.captured.slice(i + 1).some((later) => normalizeSql(later.query) === key);
    const times = isLast ? want - done : Math.min(1, want - done);
    for (let k = 0; k < times; k++) script.push(st);
    sent.set(key, done + Math.max(0, times));
  });

  // Replayed statements in the request's order, then the ones left out, costliest first.
  const order = [...capturedByShape.keys()];
  const statements = [...rows.entries()]
    .sort(([ka, a], [kb, b]) => {
      const ia = order.indexOf(ka);
      const ib = order.indexOf(kb);
      if (ia >= 0 && ib >= 0) return ia - ib;
      if (ia >= 0 || ib >= 0) return ia >= 0 ? -1 : 1;
      return b.msPerRequest - a.msPerRequest;
    })
    .map(([, row]) => row);
  return {
    requests,
    statements,
    pgMsPerRequest: statements.reduce((a, s) => a + s.msPerRequest, 0),
    replayedMsPerRequest: statements.reduce((a, s) => a + s.replayed * s.meanMs, 0),
    script,
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** One line per statement for the log: calls per request, mean time, time per request, share, replayed count, the text cut short. */
export function floorLines(floor: Floor, indent = "      "): string[] {
  const ms = (v: number) => v.toFixed(3);
  return floor.statements.map((s) => {
    const text = s.query.replace(/\s+/g, " ").trim();
    const short = text.length > 90 ? `${text.slice(0, 87)}...` : text;
    return `${indent}${s.callsPerRequest.toFixed(3).padStart(7)}/req × ${ms(s.meanMs).padStart(7)} ms = ${ms(s.msPerRequest).padStart(6)} ms/req (${(s.shareOfTime * 100).toFixed(1).padStart(5)}%) ×${s.replayed} ${short}${s.note ? `  [${s.note}]` : ""}`;
  });
}
