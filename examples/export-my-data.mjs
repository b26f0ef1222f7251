#!/usr/bin/env node
// Anyone: download everything the platform holds about you (LGPD), as on /privacidade-lgpd.
//   node examples/export-my-data.mjs            -> ./elo-escolar-dados-<data-hora>.json
//   node examples/export-my-data.mjs backups/   -> backups/elo-escolar-dados-<data-hora>.json
//   node examples/export-my-data.mjs meus.json  -> meus.json
// The file holds signed links to your uploaded files; they expire after one hour.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { clientFromEnv, run } from "./lib/cli.mjs";

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");

/** "elo-escolar-dados-2025-03-14-093005.json", the name the web page's download uses. */
function exportFileName(/** @type {Date} */ now) {
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `elo-escolar-dados-${stamp}.json`;
}

/** The target file: the argument when it names a .json file, else a fresh name in that folder (or here). */
async function targetPath(/** @type {string | undefined} */ arg) {
  if (arg && arg.toLowerCase().endsWith(".json")) {
    await mkdir(path.dirname(path.resolve(arg)), { recursive: true });
    return path.resolve(arg);
  }
  const dir = path.resolve(arg ?? ".");
  await mkdir(dir, { recursive: true });
  return path.join(dir, exportFileName(new Date()));
}

run(async () => {
  const elo = clientFromEnv();
  const data = await elo.privacy.export.mutate();
  const file = await targetPath(process.argv[2]);
  // `wx`: never overwrite an earlier export by accident.
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`, { flag: "wx" });

  console.log(`Dados exportados com sucesso! Arquivo: ${file}`);
  console.log(`Conta: ${data.account.email}`);
  console.log(`Matrículas: ${data.enrollments.length}`);
  console.log(`Vouchers: ${data.vouchers.length}`);
  console.log(`Consentimentos: ${data.consents.length}`);
  console.log(`Vínculos com escolas: ${data.schoolMemberships.length}`);
  console.log(`Tokens de API: ${data.apiTokens.length}`);
  console.log(`Arquivos enviados: ${data.files.length} (links válidos por 1 hora)`);
});
