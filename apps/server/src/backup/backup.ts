import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PGlite } from "@electric-sql/pglite";
import type { Database, DatabaseHandle } from "@elo/db";
import { schema } from "@elo/db";
import { isNotNull, sql } from "drizzle-orm";
import postgres from "postgres";
import { queryRows } from "../db/raw";
import { BUCKETS, checkedKey, type Bucket, type Storage } from "../storage/storage";
import { pgConnection, pgToolFor } from "./pg-tools";
import { backupLocation, BACKUP_PREFIX, type BackupLocation } from "./location";

const run = promisify(execFile);

export const MANIFEST = "manifest.json";
export const DELETIONS = "deletions.json";
const PG_DUMP_FILE = "database.dump";
const PGLITE_FILE = "database.pglite.tar.gz";

/** One line of progress, in Portuguese, for the operator. */
export type Progress = (line: string) => void;

export interface ManifestFile {
  bucket: Bucket;
  key: string;
  size: number;
  sha256: string;
  contentType: string;
}

/** What a backup holds (decision 182); written last, so a folder without one is an unfinished backup. */
export interface Manifest {
  format: "elo-backup/1";
  createdAt: string;
  /** `pgDumpMajor`: the pg_dump that wrote it (pg_restore must be at least as new); absent on PGlite and older backups. */
  database: { kind: DatabaseHandle["kind"]; file: string; sha256: string; bytes: number; pgDumpMajor?: number };
  /** Rows per table (`schema.table`), counted in the dump's own snapshot on PostgreSQL. */
  tables: Record<string, number>;
  files: ManifestFile[];
  /** How many entries the deletion ledger had (deletions.json). */
  deletions: number;
}

/** An entry of the deletion ledger: the hash of a deleted account's id and when it was deleted. */
export interface LedgerEntry {
  accountHash: string;
  deletedAt: string;
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** `elo-backup-20261128T020304Z`: sorts by date, one per second. */
export const backupName = (at: Date) => `${BACKUP_PREFIX}${at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "")}`;

/** Every table of the app (`public`) and the migration journal (`drizzle`), as `schema.table`. */
async function tableNames(query: (text: string) => Promise<{ name: string }[]>): Promise<string[]> {
  const rows = await query(
    `select schemaname || '.' || tablename as name from pg_tables where schemaname in ('public', 'drizzle') order by 1`,
  );
  return rows.map((r) => r.name);
}

const quoted = (name: string) =>
  name
    .split(".")
    .map((p) => `"${p.replace(/"/g, '""')}"`)
    .join(".");

async function countRows(query: (text: string) => Promise<{ name?: string; n?: number | string }[]>): Promise<Record<string, number>> {
  const names = await tableNames(query as never);
  const counts: Record<string, number> = {};
  for (const name of names) {
    const [row] = await query(`select count(*)::int as n from ${quoted(name)}`);
    counts[name] = Number(row?.n ?? 0);
  }
  return counts;
}

/** Row counts of the database behind `db` (either driver). */
export const countTables = (db: Database) => countRows((text) => queryRows(db, sql.raw(text)));

/** The deletion ledger of a database: every deletion record that names an account by hash. */
export async function readLedger(db: Database): Promise<LedgerEntry[]> {
  const rows = await db
    .select({ accountHash: schema.deletionRecords.accountHash, deletedAt: schema.deletionRecords.deletedAt })
    .from(schema.deletionRecords)
    .where(isNotNull(schema.deletionRecords.accountHash));
  return rows.map((r) => ({ accountHash: r.accountHash!, deletedAt: new Date(r.deletedAt).toISOString() }));
}

/**
 * Writes one dated backup under `to` (a folder or an S3 prefix, decision 184): the database (pg_dump
 * -Fc on PostgreSQL, PGlite's own data directory dump otherwise), every stored file under
 * files/<bucket>/<key>, the deletion ledger, and last the manifest (row counts per table, SHA-256 per
 * file). The database goes first: uploads are stored before the row naming them commits, so every
 * file a dumped row names is copied after it.
 */
export async function createBackup(opts: {
  handle: DatabaseHandle;
  /** The PostgreSQL URL pg_dump connects to (required on PostgreSQL). */
  databaseUrl?: string;
  storage: Storage;
  /** A folder, `s3://bucket/prefix`, or a location already open (the caller closes it). */
  to: string | BackupLocation;
  now?: Date;
  progress?: Progress;
}): Promise<{ dir: string; name: string; manifest: Manifest }> {
  const progress = opts.progress ?? (() => {});
  const now = opts.now ?? new Date();
  const location = typeof opts.to === "string" ? backupLocation(opts.to) : opts.to;
  const name = backupName(now);
  const dir = location.address(name);
  const tmp = await mkdtemp(path.join(tmpdir(), "elo-backup-"));
  try {
    if ((await location.names()).includes(name)) throw new Error(`${dir} já existe`);
    progress(`Destino: ${dir}`);

    let database: Manifest["database"];
    let tables: Record<string, number>;
    if (opts.handle.kind === "postgres") {
      if (!opts.databaseUrl) throw new Error("a URL do PostgreSQL é necessária para o pg_dump");
      progress("Banco de dados: pg_dump -Fc...");
      const local = location.localPath(name, PG_DUMP_FILE) ?? path.join(tmp, PG_DUMP_FILE);
      await mkdir(path.dirname(local), { recursive: true });
      ({ database, tables } = await dumpPostgres(opts.databaseUrl, local));
      await location.putFile(name, PG_DUMP_FILE, local);
    } else {
      progress("Banco de dados (PGlite): cópia da pasta de dados...");
      const client = (opts.handle.db as unknown as { $client: PGlite }).$client;
      tables = await countTables(opts.handle.db);
      const blob = await client.dumpDataDir("gzip");
      const bytes = Buffer.from(await blob.arrayBuffer());
      await location.put(name, PGLITE_FILE, bytes);
      database = { kind: "pglite", file: PGLITE_FILE, sha256: sha256(bytes), bytes: bytes.length };
    }
    progress(`Banco de dados: ${Object.keys(tables).length} tabelas, ${Object.values(tables).reduce((a, b) => a + b, 0)} linhas, ${mb(database.bytes)}.`);

    const ledger = await readLedger(opts.handle.db);
    await location.put(name, DELETIONS, Buffer.from(JSON.stringify(ledger, null, 1)));

    const files: ManifestFile[] = [];
    for (const bucket of BUCKETS) {
      const entries = await opts.storage.list(bucket, "");
      progress(`Arquivos de ${bucket}: ${entries.length}`);
      let done = 0;
      for (const entry of entries) {
        const stored = await opts.storage.get(bucket, entry.key);
        // Removed since it was listed (replaced, or its account deleted): nothing to keep.
        if (stored) {
          await location.put(name, `files/${bucket}/${checkedKey(entry.key)}`, stored.bytes);
          files.push({ bucket, key: entry.key, size: stored.bytes.length, sha256: sha256(stored.bytes), contentType: stored.contentType });
        }
        if (++done % 100 === 0) progress(`  ${done}/${entries.length}`);
      }
    }

    // Read back what was written before calling it a backup: a full disk, a bad volume or a bucket
    // that dropped an object shows here, not at the restore.
    progress("Conferindo o que foi gravado...");
    if ((await location.sha256(name, database.file)) !== database.sha256) throw new Error(`${database.file} gravado não confere (SHA-256)`);
    for (const f of files) {
      if ((await location.sha256(name, `files/${f.bucket}/${f.key}`)) !== f.sha256) throw new Error(`o arquivo ${f.bucket}/${f.key} gravado não confere (SHA-256)`);
    }

    const manifest: Manifest = { format: "elo-backup/1", createdAt: now.toISOString(), database, tables, files, deletions: ledger.length };
    await location.put(name, MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)));
    progress(`Pronto: ${dir} (${files.length} arquivos, ${ledger.length} exclusões no registro).`);
    return { dir, name, manifest };
  } finally {
    await rm(tmp, { recursive: true, force: true });
    if (typeof opts.to === "string") location.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * pg_dump in a snapshot exported by a repeatable-read transaction that also counts the rows: the
 * manifest's counts are exactly the dump's, even with the servers writing meanwhile.
 */
async function dumpPostgres(url: string, file: string): Promise<{ database: Manifest["database"]; tables: Record<string, number> }> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await client.begin("isolation level repeatable read read only", async (tx) => {
      const [{ snapshot }] = (await tx`select pg_export_snapshot() as snapshot`) as unknown as [{ snapshot: string }];
      const tables = await countRows((text) => tx.unsafe(text) as never);
      const [{ major }] = (await tx`select current_setting('server_version_num')::int / 10000 as major`) as unknown as [{ major: number }];
      const tool = await pgToolFor("pg_dump", major);
      const conn = pgConnection(url);
      await run(tool.path, ["--format=custom", `--snapshot=${snapshot}`, "--no-owner", "--no-acl", `--file=${file}`, `--dbname=${conn.dbname}`], { maxBuffer: 16 * 1024 * 1024, env: conn.env });
      const bytes = await readFile(file);
      return { database: { kind: "postgres" as const, file: path.basename(file), sha256: sha256(bytes), bytes: bytes.length, pgDumpMajor: tool.major }, tables };
    });
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** The manifest of backup `name` under `location`; refuses an unfinished backup or an unknown format. */
export async function readManifest(location: BackupLocation, name: string): Promise<Manifest> {
  const bytes = await location.get(name, MANIFEST);
  if (!bytes) throw new Error(`${location.address(name)} não tem ${MANIFEST}: não é uma cópia completa (a cópia pode ter parado no meio)`);
  const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  if (manifest.format !== "elo-backup/1") throw new Error(`formato de cópia desconhecido: ${String(manifest.format)}`);
  return manifest;
}

export { PG_DUMP_FILE, PGLITE_FILE, sha256 };
