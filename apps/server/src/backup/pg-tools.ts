import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * pg_dump / pg_restore of the highest PostgreSQL version installed: `PG_BIN_DIR` first, then
 * /usr/lib/postgresql/<version>/bin, then the PATH. pg_dump must be at least the server's version.
 */
export function pgTool(name: "pg_dump" | "pg_restore"): string {
  const dirs = [process.env.PG_BIN_DIR];
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    dirs.push(
      ...readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => path.join(base, v, "bin")),
    );
  }
  for (const dir of dirs) if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  return name;
}

/**
 * pg_dump/pg_restore's connection: the URL without its password, which goes in PGPASSWORD, so that
 * it never shows in the process list (`ps`) of the machine running the backup.
 */
export function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** The major version a PostgreSQL tool reports (`pg_dump (PostgreSQL) 16.4 (Debian ...)` → 16), or null. */
export async function pgToolMajor(tool: string): Promise<number | null> {
  try {
    const { stdout } = await run(tool, ["--version"]);
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The tool, refused when it is older than `needed` (the server's major for pg_dump, the dump's
 * pg_dump major for pg_restore): an older pg_dump refuses a newer server, and an older pg_restore
 * fails on a newer dump's header, both halfway; say it first, and what to install.
 */
export async function pgToolFor(name: "pg_dump" | "pg_restore", needed: number): Promise<{ path: string; major: number }> {
  const tool = pgTool(name);
  const major = await pgToolMajor(tool);
  if (major === null) throw new Error(`${name} não foi encontrado (${tool}): instale o cliente do PostgreSQL ${needed} (postgresql-client-${needed}) ou defina PG_BIN_DIR.`);
  if (major < needed) {
    throw new Error(`${name} ${major} (${tool}) é mais antigo que ${name === "pg_dump" ? "o servidor" : "a cópia"} (PostgreSQL ${needed}): instale postgresql-client-${needed} ou aponte PG_BIN_DIR para a pasta bin de uma versão ${needed} ou mais nova.`);
  }
  return { path: tool, major };
}
