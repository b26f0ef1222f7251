import { openDatabase, schema } from "@elo/db";
import { accessLogMessages, incidentUpdateFields } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import path from "node:path";
import { parseArgs } from "node:util";
import { incidentReport, incidentText } from "../access-log/incident";
import { updateIncident } from "../access-log/incident-register";
import { loadConfig } from "../config";

/**
 * `npm run incident -- --from 2026-03-01 --to 2026-03-03 [--school "Colégio Horizonte"] [--json]`:
 * the accounts whose data was opened or served in the window, from the access logs (decision 191).
 * Dates are São Paulo days (`yyyy-MM-dd`, the whole day) or ISO instants; `--to` is inclusive for days.
 *
 * `npm run incident -- update --id <uuid> --by admin@escola.com [--status contido] [--measures …]
 * [--risks …] [--delay-reason …] [--anpd-communicated aaaa-mm-dd] [--holders-communicated aaaa-mm-dd]
 * [--accounts n] [--children n] [--nature …]`: edits a recorded incident; the edit is appended to its
 * history with the administrator named by --by (decision 195). "none" clears a date.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string" },
    to: { type: "string" },
    school: { type: "string" },
    json: { type: "boolean", default: false },
    id: { type: "string" },
    by: { type: "string" },
    status: { type: "string" },
    nature: { type: "string" },
    measures: { type: "string" },
    risks: { type: "string" },
    "delay-reason": { type: "string" },
    "anpd-communicated": { type: "string" },
    "holders-communicated": { type: "string" },
    accounts: { type: "string" },
    children: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function instant(text: string | undefined, name: string, endOfDay: boolean): Date {
  if (!text) fail(`Informe --${name} (data aaaa-mm-dd ou instante ISO).`);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const d = day ? new Date(`${text}T00:00:00-03:00`) : new Date(text);
  if (Number.isNaN(d.getTime())) fail(`--${name}: data inválida "${text}" (use aaaa-mm-dd ou um instante ISO).`);
  return day && endOfDay ? new Date(d.getTime() + 24 * 60 * 60 * 1000) : d;
}

const optionalDate = (text: string | undefined, name: string) => (text === undefined ? undefined : text === "none" ? null : instant(text, name, false));
const optionalCount = (text: string | undefined, name: string) => {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) fail(`--${name}: informe um número inteiro.`);
  return Number(text);
};

const config = loadConfig();
const openDb = () => (config.DATABASE_URL ? openDatabase({ url: config.DATABASE_URL, poolMax: 2 }) : openDatabase({ dataDir: path.resolve(config.DATA_DIR, "pglite") }));

if (positionals[0] === "update") {
  if (!values.id) fail("Informe --id do incidente.");
  if (!values.by) fail("Informe --by com o e-mail do administrador que faz a alteração.");
  const parsed = incidentUpdateFields.safeParse({
    status: values.status,
    nature: values.nature,
    measures: values.measures,
    risks: values.risks,
    delayReason: values["delay-reason"],
    anpdCommunicatedAt: optionalDate(values["anpd-communicated"], "anpd-communicated"),
    holdersCommunicatedAt: optionalDate(values["holders-communicated"], "holders-communicated"),
    accountsAffected: optionalCount(values.accounts, "accounts"),
    childrenAffected: optionalCount(values.children, "children"),
  });
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("\n"));
  if (Object.values(parsed.data).every((v) => v === undefined)) fail(accessLogMessages.incidentNothingChanged);
  const handle = await openDb();
  try {
    const [admin] = await handle.db
      .select({ id: schema.users.id, email: schema.users.email })
      .from(schema.users)
      .innerJoin(schema.userRoles, and(eq(schema.userRoles.userId, schema.users.id), eq(schema.userRoles.role, "admin")))
      .where(eq(schema.users.email, values.by.trim().toLowerCase()));
    if (!admin) fail(`--by: "${values.by}" não é o e-mail de um administrador.`);
    if (!/^[0-9a-f-]{36}$/i.test(values.id)) fail(accessLogMessages.incidentNotFound);
    const done = await updateIncident(handle.db, values.id, parsed.data, { userId: admin.id, email: admin.email, via: "cli" }, new Date());
    if (!done) fail(accessLogMessages.incidentNotFound);
    console.log(done.changed ? `${accessLogMessages.incidentUpdated}: ${done.changed} campo(s) alterado(s), registrado no histórico.` : accessLogMessages.incidentUnchanged);
  } finally {
    await handle.close();
  }
} else {
  if (positionals.length > 0) fail(`Comando desconhecido "${positionals[0]}": use "update" ou apenas --from/--to.`);
  const from = instant(values.from, "from", false);
  const to = instant(values.to, "to", true);
  if (to <= from) fail("--to deve ser depois de --from.");
  const handle = await openDb();
  try {
    const report = await incidentReport(handle.db, { from, to, school: values.school ?? null });
    console.log(values.json ? JSON.stringify(report, null, 2) : incidentText(report));
  } finally {
    await handle.close();
  }
}
