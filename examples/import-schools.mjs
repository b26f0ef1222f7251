#!/usr/bin/env node
// Administrators: import (or update) schools from a CSV file, as on /admin-escolas.
//   node examples/import-schools.mjs escolas.csv
// Columns: name, categoria, modalidade, city, uf, neighborhood, address, phone, whatsapp, cep.
// Invalid rows and repeated names are skipped; a name that already exists updates that school.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { clientFromEnv, run } from "./lib/cli.mjs";

/** The import procedure takes at most this many rows per call. */
const CHUNK = 100;

run(async () => {
  const file = process.argv[2];
  if (!file) throw new Error("Informe o arquivo CSV, por exemplo: node examples/import-schools.mjs escolas.csv");
  const elo = clientFromEnv();

  const form = new FormData();
  form.append("file", new Blob([await readFile(file)], { type: "text/csv" }), path.basename(file));
  const preview = await elo.admin.csv.preview.mutate(form);
  const { valid, warning, invalid } = preview.counts;
  console.log(`CSV processado: ${valid} válidas, ${warning} avisos, ${invalid} inválidas`);
  if (preview.truncated) console.log("Máximo de 500 escolas por importação: as linhas seguintes foram ignoradas.");
  for (const row of preview.rows) {
    if (row.status !== "valid") console.log(`  linha ${row.index} (${row.name || "sem nome"}): ${row.status === "invalid" ? "inválida" : "aviso"} — ${row.message}`);
  }

  const selected = preview.rows
    .filter((row) => row.selectable)
    .map(({ index, name, categoria, modalidade, city, uf, neighborhood, address, phone, whatsapp, cep }) => ({ index, name, categoria, modalidade, city, uf, neighborhood, address, phone, whatsapp, cep }));
  if (selected.length === 0) throw new Error("Nenhuma linha válida selecionada");

  const total = { created: 0, updated: 0, errors: 0 };
  for (let i = 0; i < selected.length; i += CHUNK) {
    const result = await elo.admin.csv.import.mutate({ rows: selected.slice(i, i + CHUNK) });
    total.created += result.created;
    total.updated += result.updated;
    total.errors += result.errors;
  }
  console.log(`Importação concluída! ${total.created} novas, ${total.updated} atualizadas${total.errors ? `, ${total.errors} erros` : ""}`);
});
