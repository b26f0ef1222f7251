import { CSV_COLUMNS } from "@elo/shared";
import { stringify } from "csv-stringify/sync";

const EXAMPLES = [
  ["Colégio Exemplo", "Ed. Básica", "", "São Paulo", "SP", "Pinheiros", "Rua dos Pinheiros, 100", "(11) 3333-4444", "(11) 98888-7777", "05422-001"],
  ["Escola de Idiomas Exemplo", "Idiomas", "Inglês", "Rio de Janeiro", "RJ", "Copacabana", "Av. Atlântica, 200", "(21) 2222-3333", "(21) 97777-6666", "22021-001"],
];

/** template_escolas.csv: byte-order mark, the ten columns and two example rows. */
export function schoolsCsvTemplate(): string {
  return stringify([...EXAMPLES], { header: true, columns: [...CSV_COLUMNS], bom: true, record_delimiter: "\r\n" });
}
