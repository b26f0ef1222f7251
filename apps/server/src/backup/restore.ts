import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, schema, type Database, type DatabaseHandle } from "@elo/db";
import { privacyMessages } from "@elo/shared";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { queryRows } from "../db/raw";
import { eraseAccountRows } from "../routers/privacy/erase-account";
import { listUserFiles } from "../routers/privacy/user-files";
import { BUCKETS, checkedKey, type Storage } from "../storage/storage";
import { openBackup, type BackupLocation } from "./location";
import { pgConnection, pgToolFor } from "./pg-tools";
import { countTables, DELETIONS, readLedger, readManifest, sha256, type LedgerEntry, type Manifest, type Progress } from "./backup";

const run = promisify(execFile);

/** Why a restore refused to start or stopped; the message is for the operator, in Portuguese. */
export class RestoreError extends Error {}

export interface RestoreTarget {
  /** An empty PostgreSQL database, or ... */
  databaseUrl?: string;
  /** ... a PGlite data directory that does not exist yet or is empty. */
  pgliteDir?: string;
  storage: Storage;
}

export interface RestoreResult {
  manifest: Manifest;
  handle: DatabaseHandle;
  /** Accounts of the backup erased again because the ledger says they were deleted after it. */
  erased: number;
  /** Files of those accounts left out. */
  skippedFiles: number;
  /** Ledger entries known from every source. */
  ledger: number;
}

/**
 * The deletion ledger entries a restore must honour (decision 182): the backup's own, those of every
 * later backup beside it (same folder or bucket prefix), and any given (`--ledger` files,
 * `--ledger-from` the live database).
 */
export async function gatherLedger(location: BackupLocation, name: string, extra: LedgerEntry[] = []): Promise<LedgerEntry[]> {
  const byHash = new Map<string, LedgerEntry>();
  const add = (entries: LedgerEntry[]) => entries.forEach((e) => byHash.has(e.accountHash) || byHash.set(e.accountHash, e));
  for (const sibling of (await location.names()).filter((n) => n >= name)) {
    const bytes = await location.get(sibling, DELETIONS);
    if (bytes) add(JSON.parse(bytes.toString("utf8")) as LedgerEntry[]);
  }
  add(extra);
  return [...byHash.values()];
}

/** The ledger of a live database (`--ledger-from`): the deletions made since the backup. */
export async function ledgerFromDatabase(url: string): Promise<LedgerEntry[]> {
  const handle = await openDatabase({ url, poolMax: 1 });
  try {
    return await readLedger(handle.db);
  } finally {
    await handle.close();
  }
}

async function assertEmptyPostgres(url: string) {
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [row] = await client`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
    if (Number(row?.n) > 0) {
      throw new RestoreError(
        `O banco de destino não está vazio (${row?.n} tabelas). A restauração só grava num banco vazio: crie um novo (createdb) e não inicie o servidor nele antes de restaurar.`,
      );
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function assertEmptyStorage(storage: Storage) {
  for (const bucket of BUCKETS) {
    const found = await storage.list(bucket, "");
    if (found.length > 0) throw new RestoreError(`O armazenamento de destino não está vazio (${found.length} arquivos em ${bucket}). Restaure num armazenamento vazio.`);
  }
}

/**
 * Loads a backup into an empty database and storage (refusing anything else), checks the row
 * counts and every file's SHA-256 against the manifest, and erases again the accounts the deletion
 * ledger says were deleted after the backup, their files never copied back. The caller closes the
 * returned handle.
 */
export async function restoreBackup(
  backup: string | { location: BackupLocation; name: string },
  target: RestoreTarget,
  opts: { ledger?: LedgerEntry[]; progress?: Progress; now?: Date } = {},
): Promise<RestoreResult> {
  const { location, name } = typeof backup === "string" ? openBackup(backup) : backup;
  const tmp = await mkdtemp(path.join(tmpdir(), "elo-restore-"));
  try {
    return await restoreFrom(location, name, tmp, target, opts);
  } finally {
    await rm(tmp, { recursive: true, force: true });
    if (typeof backup === "string") location.close();
  }
}

async function restoreFrom(location: BackupLocation, name: string, tmp: string, target: RestoreTarget, opts: { ledger?: LedgerEntry[]; progress?: Progress }): Promise<RestoreResult> {
  const progress = opts.progress ?? (() => {});
  const manifest = await readManifest(location, name);
  progress(`Cópia ${location.address(name)} de ${manifest.createdAt}: ${Object.keys(manifest.tables).length} tabelas, ${manifest.files.length} arquivos.`);

  const dumpFile = await location.fetchFile(name, manifest.database.file, tmp).catch(() => null);
  if (!dumpFile || !existsSync(dumpFile)) throw new RestoreError(`${manifest.database.file} não está na cópia: a cópia está incompleta.`);
  const dumpBytes = await readFile(dumpFile);
  if (sha256(dumpBytes) !== manifest.database.sha256) throw new RestoreError(`${manifest.database.file} não confere com o manifesto (SHA-256): a cópia está corrompida.`);
  for (const f of manifest.files) checkedKey(f.key);

  let handle: DatabaseHandle;
  if (manifest.database.kind === "postgres") {
    if (!target.databaseUrl) throw new RestoreError("Esta cópia é de PostgreSQL: defina DATABASE_URL com um banco vazio.");
    const tool = await pgToolFor("pg_restore", manifest.database.pgDumpMajor ?? 0).catch((error: Error) => {
      throw new RestoreError(error.message);
    });
    await assertEmptyPostgres(target.databaseUrl);
    await assertEmptyStorage(target.storage);
    progress(`Banco de dados: pg_restore ${tool.major}...`);
    const conn = pgConnection(target.databaseUrl);
    await run(tool.path, ["--no-owner", "--no-acl", "--exit-on-error", `--dbname=${conn.dbname}`, dumpFile], { maxBuffer: 16 * 1024 * 1024, env: conn.env }).catch(
      (error: Error & { stderr?: string }) => {
        throw new RestoreError(`pg_restore falhou: ${(error.stderr || error.message).trim()}`);
      },
    );
    handle = await openDatabase({ url: target.databaseUrl, poolMax: 2 });
  } else {
    const dataDir = target.pgliteDir;
    if (!dataDir) throw new RestoreError("Esta cópia é de PGlite: restaure sem DATABASE_URL (a pasta DATA_DIR/pglite).");
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new RestoreError(`A pasta ${dataDir} não está vazia. A restauração só grava numa pasta de dados nova.`);
    await assertEmptyStorage(target.storage);
    progress("Banco de dados (PGlite): carregando a pasta de dados...");
    mkdirSync(dataDir, { recursive: true });
    const pg = await PGlite.create(dataDir, { loadDataDir: new Blob([dumpBytes]) });
    handle = await openDatabase({ pglite: pg });
  }

  try {
    const counts = await countTables(handle.db);
    const wrong = Object.entries(manifest.tables).filter(([name, n]) => counts[name] !== n);
    if (wrong.length) throw new RestoreError(`Contagem de linhas diferente do manifesto: ${wrong.map(([name, n]) => `${name} ${counts[name] ?? "ausente"} ≠ ${n}`).join(", ")}`);
    progress(`Banco de dados: ${Object.keys(counts).length} tabelas conferidas com o manifesto.`);

    const ledger = await gatherLedger(location, name, opts.ledger);
    const { erased, skip } = await replayLedger(handle.db, ledger);
    progress(`Registro de exclusões: ${ledger.length} entradas; ${erased} conta(s) excluída(s) depois da cópia apagada(s) de novo.`);

    let done = 0;
    let skippedFiles = 0;
    for (const f of manifest.files) {
      if (skip.has(`${f.bucket}/${f.key}`) || [...skip].some((s) => s.endsWith("/") && `${f.bucket}/${f.key}`.startsWith(s))) {
        skippedFiles++;
        continue;
      }
      const bytes = await location.get(name, `files/${f.bucket}/${f.key}`);
      if (!bytes) throw new RestoreError(`O arquivo ${f.bucket}/${f.key} do manifesto não está na cópia: a cópia está incompleta.`);
      if (sha256(bytes) !== f.sha256) throw new RestoreError(`O arquivo ${f.bucket}/${f.key} não confere com o manifesto (SHA-256): a cópia está corrompida.`);
      await target.storage.put(f.bucket, f.key, bytes, f.contentType);
      if (++done % 100 === 0) progress(`  arquivos: ${done}/${manifest.files.length}`);
    }
    progress(`Pronto: ${done} arquivos restaurados${skippedFiles ? `, ${skippedFiles} de contas excluídas deixados de fora` : ""}.`);
    return { manifest, handle, erased, skippedFiles, ledger: ledger.length };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Erases every restored account whose id hashes to a ledger entry (as privacy.deleteAccount did),
 * and records every entry so that the restored database's own ledger is complete. Returns the file
 * addresses (`bucket/key`, or a `bucket/<userId>/` prefix) not to restore.
 */
async function replayLedger(db: Database, ledger: LedgerEntry[]): Promise<{ erased: number; skip: Set<string> }> {
  const skip = new Set<string>();
  if (ledger.length === 0) return { erased: 0, skip };
  const when = new Map(ledger.map((e) => [e.accountHash, new Date(e.deletedAt)]));
  const hashes = [...when.keys()];
  const found = await queryRows<{ id: string; hash: string }>(
    db,
    sql`select id::text as id, encode(sha256(convert_to(id::text, 'UTF8')), 'hex') as hash from users
        where encode(sha256(convert_to(id::text, 'UTF8')), 'hex') in (select unnest(${`{${hashes.join(",")}}`}::text[]))`,
  );
  let erased = 0;
  for (const { id, hash } of found) {
    for (const f of await listUserFiles(db, id)) skip.add(`${f.bucket}/${f.key}`);
    skip.add(`avatars/${id}/`);
    skip.add(`enrollment_proofs/${id}/`);
    if (await db.transaction((tx) => eraseAccountRows(tx, id, when.get(hash)!))) erased++;
  }
  // Entries for accounts the backup never had (made and deleted after it): recorded all the same.
  await db
    .insert(schema.deletionRecords)
    .values(ledger.map((e) => ({ deletedAt: new Date(e.deletedAt), reason: privacyMessages.deletionReason, accountHash: e.accountHash })))
    .onConflictDoNothing();
  return { erased, skip };
}
