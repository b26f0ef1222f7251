import { normalizeKey, type Niche } from "@elo/shared";
import type { Sql } from "postgres";
import type { ScaleOptions } from "./options";
import { digits, pick, prng, type Random } from "./random";

interface Place {
  stateId: number;
  uf: string;
  cityId: number;
  city: string;
  neighborhoodId: number;
  neighborhood: string;
  capital: boolean;
}

const INTERIOR_NEIGHBORHOODS = ["Centro", "Jardim América", "Vila Nova", "São José"];

/** Interior municipalities get a few common neighborhood names; capitals keep their real ones. */
export async function preparePlaces(sql: Sql, opts: ScaleOptions): Promise<Place[]> {
  await sql`select setseed(${((opts.seed % 1000) / 1000) * 2 - 1})`;
  await sql`
    insert into neighborhoods (name, city_id)
    select nb, c.id
    from (select id from cities c where not exists (select 1 from neighborhoods n where n.city_id = c.id) order by random() limit ${opts.interiorCities}) c
    cross join unnest(${INTERIOR_NEIGHBORHOODS}::text[]) nb
    on conflict do nothing`;
  const rows = await sql<Array<Omit<Place, "capital"> & { isInterior: boolean }>>`
    select s.id as "stateId", s.code as uf, c.id as "cityId", c.name as city, n.id as "neighborhoodId", n.name as neighborhood,
           (n.name = any(${INTERIOR_NEIGHBORHOODS}::text[]) and (select count(*) from neighborhoods x where x.city_id = c.id) <= ${INTERIOR_NEIGHBORHOODS.length}) as "isInterior"
    from neighborhoods n join cities c on c.id = n.city_id join states s on s.id = c.state_id
    order by n.id`;
  return rows.map(({ isInterior, ...p }) => ({ ...p, capital: !isInterior }));
}

/** Share of schools per niche: most are basic-education schools, then languages, clubs, others, technology. */
const NICHE_WEIGHTS: Array<[Niche, number]> = [
  ["Ed. Básica", 0.4],
  ["Idiomas", 0.2],
  ["Clubes", 0.15],
  ["Outros", 0.15],
  ["Tecnologia", 0.1],
];
const PREFIXES: Record<Niche, string[]> = {
  "Ed. Básica": ["Colégio", "Escola", "Centro Educacional", "Instituto", "Escola Infantil"],
  Idiomas: ["Escola de Idiomas", "Instituto de Línguas", "Centro de Inglês", "Casa do Idioma"],
  Clubes: ["Clube", "Academia", "Associação Esportiva", "Centro Aquático"],
  Tecnologia: ["Escola de Programação", "Centro de Robótica", "Laboratório Maker", "Escola Digital"],
  Outros: ["Escola de Música", "Ateliê", "Espaço Cultural", "Escola de Teatro", "Centro de Reforço"],
};
const NAMES = [
  "Horizonte", "Aurora", "São José", "Santa Clara", "Dom Bosco", "Monteiro Lobato", "Novo Saber", "Ipê Amarelo", "Sabiá",
  "Primavera", "Cora Coralina", "Machado de Assis", "Cecília Meireles", "Portinari", "Santos Dumont", "Anita Garibaldi",
  "Jardim Encantado", "Arco-Íris", "Raízes", "Caminhos", "Nova Geração", "Estrela do Norte", "Mar Azul", "Sol Nascente",
  "Pequeno Príncipe", "Castelo Branco", "Vila Rica", "Bem-te-vi", "Girassol", "Tupã", "Araucária", "Jequitibá",
];
const PLAN_WEIGHTS: Array<[string | null, number]> = [
  ["gold", 0.1],
  ["silver", 0.3],
  ["bronze", 0.2],
  [null, 0.4],
];

function weighted<T>(rnd: Random, table: Array<[T, number]>): T {
  let x = rnd();
  for (const [value, w] of table) {
    if ((x -= w) < 0) return value;
  }
  return table[table.length - 1]![0];
}

/** Inserts the schools (half in capital neighborhoods, half in the interior) and their plans. Returns how many publish. */
export async function generateSchools(sql: Sql, opts: ScaleOptions, places: Place[]) {
  const rnd = prng(opts.seed);
  const capitals = places.filter((p) => p.capital);
  const interior = places.filter((p) => !p.capital);
  const categories = await sql<Array<{ id: number; name: Niche }>>`select id, name from categories`;
  const modalities = await sql<Array<{ id: number; categoryId: number }>>`select id, category_id as "categoryId" from modalities`;
  const categoryId = new Map(categories.map((c) => [c.name, c.id]));
  const seen = new Set<string>();
  const schools: Record<string, unknown>[] = [];
  const plans: Array<{ index: number; plan: string }> = [];
  for (let i = 0; i < opts.schools; i++) {
    const niche = weighted(rnd, NICHE_WEIGHTS);
    const cat = categoryId.get(niche)!;
    const modality = pick(rnd, modalities.filter((m) => m.categoryId === cat));
    const place = interior.length && rnd() < 0.5 ? pick(rnd, interior) : pick(rnd, capitals);
    let name = `${pick(rnd, PREFIXES[niche])} ${pick(rnd, NAMES)}`;
    for (let unit = 2; seen.has(`${normalizeKey(name)}|${place.neighborhoodId}`); unit++) name = `${name.replace(/ \d+$/, "")} ${unit}`;
    seen.add(`${normalizeKey(name)}|${place.neighborhoodId}`);
    const ddd = 11 + Math.floor(rnd() * 88);
    schools.push({
      name,
      name_key: normalizeKey(name),
      uf: place.uf,
      city: place.city,
      neighborhood: place.neighborhood,
      state_id: place.stateId,
      city_id: place.cityId,
      neighborhood_id: place.neighborhoodId,
      category_id: cat,
      modality_id: modality.id,
      phone: `(${ddd}) 3${digits(rnd, 3)}-${digits(rnd, 4)}`,
      whatsapp: `(${ddd}) 9${digits(rnd, 4)}-${digits(rnd, 4)}`,
      address: `Rua ${pick(rnd, NAMES)}, ${1 + Math.floor(rnd() * 2000)}`,
      cep: `${1 + Math.floor(rnd() * 9)}${digits(rnd, 4)}-${digits(rnd, 3)}`,
      origin: "seed",
    });
    const plan = weighted(rnd, PLAN_WEIGHTS);
    if (plan) plans.push({ index: i, plan });
  }
  const ids: string[] = [];
  for (let i = 0; i < schools.length; i += 2000) {
    const part = schools.slice(i, i + 2000);
    const rows = await sql<Array<{ id: string }>>`insert into schools ${sql(part as never)} returning id`;
    ids.push(...rows.map((r) => r.id));
  }
  const subs = plans.map((p) => ({ school_id: ids[p.index]!, plan_type: p.plan, status: "active" }));
  for (let i = 0; i < subs.length; i += 5000) await sql`insert into subscriptions ${sql(subs.slice(i, i + 5000) as never)}`;
  return { schools: ids.length, subscriptions: subs.length };
}
