import path from "node:path";
import { loadConfig } from "../config";
import { copyStorage, progressLine, type CopyProgress } from "../storage/copy-storage";
import { diskStorage } from "../storage/disk-storage";
import { s3Storage } from "../storage/s3-storage";

/**
 * Copies the uploaded files under DATA_DIR to the S3 bucket configured by S3_*: `npm run storage:copy`,
 * or in the Docker image `node apps/server/dist/storage-copy.js`. Safe to run again: files already in
 * the bucket are skipped (docs/decisions/116-storage-copy-command.md).
 */
const config = loadConfig();
if (!config.s3) {
  console.error("Configure o bucket (S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) para copiar os arquivos.");
  process.exit(2);
}
const root = path.resolve(config.DATA_DIR, "storage");
// Nothing is signed here: the disk store is only read.
const from = diskStorage(root, "unused");
const to = s3Storage(config.s3);

// On a terminal one line is rewritten in place; in a log, a line every 100 files and the last one.
const live = process.stdout.isTTY;
const report = (p: CopyProgress) => {
  if (live) process.stdout.write(`\r${progressLine(p)}`);
  else if (p.done === p.total || p.done % 100 === 0) console.log(progressLine(p));
};
console.log(`Copiando ${root} para o bucket ${config.s3.bucket}...`);
try {
  const result = await copyStorage(from, to, report);
  if (live) process.stdout.write("\n");
  console.log(`Pronto: ${result.copied} copiados, ${result.skipped} já estavam no bucket.`);
} catch (error) {
  if (live) process.stdout.write("\n");
  console.error(`A cópia parou: ${(error as Error).message}. Rode o comando de novo para continuar; o que já foi copiado é pulado.`);
  process.exitCode = 1;
} finally {
  to.close();
}
