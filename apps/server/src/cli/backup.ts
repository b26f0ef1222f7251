import path from "node:path";
import { openDatabase } from "@elo/db";
import { createBackup } from "../backup/backup";
import { loadConfig } from "../config";
import { recordJobRun } from "../jobs/job-runs";
import { sharedSecret } from "../lib/secrets";
import { diskStorage } from "../storage/disk-storage";
import { s3Storage } from "../storage/s3-storage";

/**
 * `npm run backup [-- --to <folder> | --to s3://bucket/prefix]` (in the image: `node
 * apps/server/dist/backup.js`; or BACKUP_TO in the environment): one dated backup under the folder
 * (default ./backups) or bucket prefix, with the database, every stored file and a manifest
 * (decisions 182, 184). Reads the same variables as the server (DATABASE_URL or DATA_DIR, S3_*);
 * a bucket prefix is reached with BACKUP_S3_* (else S3_*).
 */
const args = process.argv.slice(2);
const at = args.indexOf("--to");
const to = (at >= 0 ? args[at + 1] : undefined) ?? process.env.BACKUP_TO ?? "backups";
const config = loadConfig();
const handle = config.DATABASE_URL ? await openDatabase({ url: config.DATABASE_URL, poolMax: 2 }) : await openDatabase({ dataDir: path.resolve(config.DATA_DIR, "pglite") });
const storage = config.s3 ? s3Storage(config.s3) : diskStorage(path.resolve(config.DATA_DIR, "storage"), await sharedSecret(handle.db, "file_signing_secret"));
try {
  if (to.startsWith("--")) throw new Error("--to precisa de uma pasta ou de s3://bucket/prefixo");
  if (handle.kind === "pglite") console.log("PGlite: pare o servidor antes da cópia (a pasta de dados só tem um dono por vez).");
  const { manifest } = await createBackup({ handle, databaseUrl: config.DATABASE_URL, storage, to, progress: (line) => console.log(line) });
  // The admin's Operação page shows the last verified backup (job "backup": when, how many files).
  await recordJobRun(handle.db, new Date(manifest.createdAt), "backup", { ok: true, done: manifest.files.length });
} catch (error) {
  console.error(`A cópia falhou: ${(error as Error).message}`);
  await recordJobRun(handle.db, new Date(), "backup", { ok: false, error });
  process.exitCode = 1;
} finally {
  storage.close();
  await handle.close();
}
