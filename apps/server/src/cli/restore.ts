import { readFileSync } from "node:fs";
import path from "node:path";
import { ledgerFromDatabase, restoreBackup, RestoreError } from "../backup/restore";
import type { LedgerEntry } from "../backup/backup";
import { loadConfig } from "../config";
import { diskStorage } from "../storage/disk-storage";
import { s3Storage } from "../storage/s3-storage";

/**
 * `npm run restore -- <backup folder | s3://bucket/prefix/elo-backup-...> [--ledger-from <postgres url>] [--ledger <deletions.json>]`
 * (in the image: `node apps/server/dist/restore.js ...`): loads the backup into the EMPTY database
 * and storage the server's variables name (DATABASE_URL or DATA_DIR, S3_*), refusing anything else,
 * then erases again the accounts deleted after the backup (decisions 182, 184). A bucket address is
 * reached with BACKUP_S3_* (else S3_*).
 */
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const dir = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (!dir) {
  console.error("Uso: npm run restore -- <pasta da cópia | s3://bucket/prefixo/elo-backup-...> [--ledger-from <URL do banco em uso>] [--ledger <deletions.json>]");
  process.exit(2);
}
const config = loadConfig();
// Disk files are signed with the restored database's secret, read when the server starts: none is needed here.
const storage = config.s3 ? s3Storage(config.s3) : diskStorage(path.resolve(config.DATA_DIR, "storage"), "unused");
try {
  const ledger: LedgerEntry[] = [];
  const from = option("--ledger-from");
  if (from) ledger.push(...(await ledgerFromDatabase(from)));
  const file = option("--ledger");
  if (file) ledger.push(...(JSON.parse(readFileSync(file, "utf8")) as LedgerEntry[]));
  const result = await restoreBackup(
    dir.startsWith("s3://") ? dir : path.resolve(dir),
    { databaseUrl: config.DATABASE_URL, pgliteDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR, "pglite"), storage },
    { ledger, progress: (line) => console.log(line) },
  );
  await result.handle.close();
} catch (error) {
  console.error(error instanceof RestoreError ? error.message : `A restauração falhou: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  storage.close();
}
