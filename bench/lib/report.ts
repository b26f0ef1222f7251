import { loadavg } from "node:os";
import { round, spreadOf } from "./stats";

/** Passes whose spread, (max − min) ÷ median, passes this make a figure "unstable" instead of met or not met. */
export const UNSTABLE_SPREAD = 0.25;

/** The machine's load average (1, 5 and 15 minutes) before and after a figure was measured. */
export interface LoadWindow {
  before: number[];
  after: number[];
}

export const loadNow = () => loadavg().map((l) => round(l));

/** Runs `fn` and returns its result with the load average before and after it. */
export async function withLoad<T>(fn: () => Promise<T>): Promise<{ result: T; load: LoadWindow }> {
  const before = loadNow();
  const result = await fn();
  return { result, load: { before, after: loadNow() } };
}

export type Verdict = "met" | "not met" | "unstable" | "void";

export interface FigureInput {
  name: string;
  /** One value per measured pass; a single value for a figure taken once (first load, zero oversell). */
  values: number[];
  goal: string;
  meets: (value: number) => boolean;
  detail: string;
  load: LoadWindow;
  /** How a value is shown (default: a number rounded to its size). */
  format?: (value: number) => string;
  /** Set when the measure did not measure what it claims (the claim fixture ran dry): the verdict is "void". */
  voidBecause?: string;
}

export interface Figure {
  name: string;
  median: string;
  min: string;
  max: string;
  /** (max − min) ÷ median of the passes, in %; null for a figure taken once. */
  spreadPercent: number | null;
  passes: number[];
  goal: string;
  verdict: Verdict;
  detail: string;
  load: LoadWindow;
}

const number = (v: number) => String(Math.abs(v) >= 100 ? round(v, 0) : Math.abs(v) >= 10 ? round(v, 1) : round(v, 3));

/** A figure from its passes: met / not met on the median, unless its passes spread more than 25% (decision 112). */
export function figure(input: FigureInput): Figure {
  const s = spreadOf(input.values);
  const once = input.values.length < 2;
  const verdict: Verdict = input.voidBecause ? "void" : !once && s.spread > UNSTABLE_SPREAD ? "unstable" : input.meets(s.median) ? "met" : "not met";
  const show = input.format ?? number;
  return {
    name: input.name,
    median: show(s.median),
    min: show(s.min),
    max: show(s.max),
    spreadPercent: once ? null : round(s.spread * 100, 0),
    passes: input.values.map((v) => round(v, 4)),
    goal: input.goal,
    verdict,
    detail: input.voidBecause ? `${input.voidBecause}; ${input.detail}` : input.detail,
    load: input.load,
  };
}

const spreadText = (f: Figure) => (f.spreadPercent === null ? "—" : `${f.spreadPercent}%`);
const loadText = (l: LoadWindow) => `${l.before.join("/")} → ${l.after.join("/")}`;

/** The figures as a text table: median, min and max of the passes, spread, goal, verdict, load average. */
export function printTable(figures: Figure[], log: (line: string) => void = console.log) {
  const w = Math.max(...figures.map((f) => f.name.length));
  const line = "─".repeat(w + 110);
  log(`\n${line}\n${"figure".padEnd(w)}  ${"median".padStart(8)}  ${"min".padStart(8)}  ${"max".padStart(8)}  spread  ${"goal".padEnd(8)}  ${"verdict".padEnd(8)}  load 1/5/15 min before → after`);
  log(line);
  for (const f of figures) {
    log(`${f.name.padEnd(w)}  ${f.median.padStart(8)}  ${f.min.padStart(8)}  ${f.max.padStart(8)}  ${spreadText(f).padStart(6)}  ${f.goal.padEnd(8)}  ${f.verdict.padEnd(8)}  ${loadText(f.load)}`);
    log(`${"".padEnd(w)}  ${f.detail}`);
  }
  log(line);
}

/** The same table in Markdown, ready for docs/performance.md. */
export function markdownTable(figures: Figure[]): string {
  const rows = figures.map((f) => `| ${f.name.trim()} | ${f.median} | ${f.min} – ${f.max} | ${spreadText(f)} | ${f.goal} | ${f.verdict} | ${loadText(f.load)} | ${f.detail} |`);
  return ["| figure | median | min – max | spread | goal | verdict | load before → after | detail |", "|---|---|---|---|---|---|---|---|", ...rows, ""].join("\n");
}
