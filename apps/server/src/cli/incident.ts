import { openDatabase } from "@elo/db";
import path from "node:path";
import { parseArgs } from "node:util";
import { incidentReport, incidentText } from "../access-log/incident";
import { loadConfig } from "../config";

/**
 * `npm run incident -- --from 2026-03-01 --to 2026-03-03 [--school "Colégio Horizonte"] [--json]`:
 * the accounts whose data was opened or served in the window, from the access logs (decision 191).
 * Dates are São Paulo days (`yyyy-MM-dd`, the whole day) or ISO instants; `--to` is inclusive for days.
 */
const { values } = parseArgs({ options: { from: { type: "string" }, to: { type: "string" }, school: { type: "string" }, json: { type: "boolean", default: false } } });

function instant(text: string | undefined, name: string, endOfDay: boolean): Date {
  if (!text) {
    console.error(`Informe --${name} (data aaaa-mm-dd ou instante ISO).`);
    process.exit(2);
  }
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const d = day ? new Date(`${text}T00:00:00-03:00`) : new Date(text);
  if (Number.isNaN(d.getTime())) {
    console.error(`--${name}: data inválida "${text}" (use aaaa-mm-dd ou um instante ISO).`);
    process.exit(2);
  }
  return day && endOfDay ? new Date(d.getTime() + 24 * 60 * 60 * 1000) : d;
}

const from = instant(values.from, "from", false);
const to = instant(values.to, "to", true);
if (to <= from) {
  console.error("--to deve ser depois de --from.");
  process.exit(2);
}
const config = loadConfig();
const handle = config.DATABASE_URL ? await openDatabase({ url: config.DATABASE_URL, poolMax: 2 }) : await openDatabase({ dataDir: path.resolve(config.DATA_DIR, "pglite") });
try {
  const report = await incidentReport(handle.db, { from, to, school: values.school ?? null });
  console.log(values.json ? JSON.stringify(report, null, 2) : incidentText(report));
} finally {
  await handle.close();
}
