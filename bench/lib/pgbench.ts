import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "./processes";

/** pgbench from PATH, or from the PostgreSQL server package. */
export function findPgbench(): string {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(path.join(dir, "pgbench"))) return path.join(dir, "pgbench");
  }
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    for (const v of readdirSync(base).sort().reverse()) {
      const p = path.join(base, v, "bin/pgbench");
      if (existsSync(p)) return p;
    }
  }
  throw new Error("pgbench not found: install the PostgreSQL server package (postgresql-15 or newer)");
}

export interface PgbenchResult {
  tps: number;
  latencyAvgMs: number;
  transactions: number;
  failed: number;
  aborted: number;
  /** pgbench's own time to open its connections, before the first transaction. */
  connectionMs: number;
}

/** Runs a custom script with prepared statements; returns transactions per second without connection time. */
export async function pgbench(opts: { url: string; script: string; clients: number; seconds: number; threads?: number }): Promise<PgbenchResult> {
  const u = new URL(opts.url);
  const args = [
    "-n",
    "-M", "prepared",
    "-c", String(opts.clients),
    "-j", String(opts.threads ?? 2),
    "-T", String(opts.seconds),
    "-f", opts.script,
    "-h", u.hostname,
    "-p", u.port || "5432",
    "-U", decodeURIComponent(u.username || "postgres"),
    u.pathname.slice(1),
  ];
  let out: string;
  try {
    out = await run(findPgbench(), args);
  } catch (error) {
    // pgbench exits 2 when some clients aborted; keep what it measured.
    out = (error as Error).message;
    if (!/tps = /.test(out)) throw error;
  }
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? "0");
  return {
    tps: num(/tps = ([\d.]+) \(without initial connection time\)/),
    latencyAvgMs: num(/latency average = ([\d.]+) ms/),
    transactions: num(/number of transactions actually processed: (\d+)/),
    failed: num(/number of failed transactions: (\d+)/),
    aborted: (out.match(/aborted in command/g) ?? []).length,
    connectionMs: num(/initial connection time = ([\d.]+) ms/),
  };
}

/** A captured statement: SQL text with $n placeholders and the serialized parameter values. */
export interface CapturedStatement {
  query: string;
  params: unknown[];
  /**
   * pgbench keeps the statement's result row as variables named by this prefix and its columns
   * (\gset), for a later statement that sends a value this one returned (the claim's outbox id).
   */
  gset?: string;
}

/**
 * Turns captured statements into a pgbench script that sends the same SQL text: every `$n` becomes
 * a pgbench variable, either one named by `variables` (a value that changes per transaction, set by
 * the `lookup` statement through \gset) or a constant decoded from base64 in that same lookup (base64
 * keeps pgbench from reading `:` inside values as variables). A variable may also be one an earlier
 * statement of the transaction sets through its `gset`.
 */
export function pgbenchScript(opts: {
  file: string;
  preamble: string[];
  lookupSelect: string[];
  lookupFrom: string;
  variables: Record<string, string>;
  /** SQL sent in place of a variable (`:name` inside), for a value that may be missing: an empty \\gset of a NULL. */
  expressions?: Record<string, string>;
  statements: CapturedStatement[];
}) {
  const byValue = new Map(Object.entries(opts.variables).map(([name, value]) => [value, name]));
  const constants: string[] = [];
  const constantNames = new Map<string, string>();
  const lines = opts.statements.map((st) => {
    // One line per statement: drop SQL line comments before joining the lines.
    let text = st.query.replace(/--[^\n]*/g, " ").replace(/\s+/g, " ").trim();
    for (let i = st.params.length; i >= 1; i--) {
      const value = String(st.params[i - 1]);
      let name = byValue.get(value);
      if (!name) {
        name = constantNames.get(value);
        if (!name) {
          name = `c${constantNames.size + 1}`;
          constantNames.set(value, name);
          constants.push(`convert_from(decode('${Buffer.from(value, "utf8").toString("base64")}', 'base64'), 'UTF8') as ${name}`);
        }
      }
      text = text.replace(new RegExp(`\\$${i}(?!\\d)`, "g"), opts.expressions?.[name] ?? `:${name}`);
    }
    return st.gset ? `${text} \\gset ${st.gset}` : `${text};`;
  });
  const select = [...opts.lookupSelect, ...constants].join(", ");
  const script = [...opts.preamble, `select ${select} ${opts.lookupFrom} \\gset`, ...lines, ""].join("\n");
  writeFileSync(opts.file, script);
  return script;
}
