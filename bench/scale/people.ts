import type { Sql } from "postgres";
import type { ScaleOptions } from "./options";

const FIRST_NAMES = [
  "Ana", "Maria", "Juliana", "Fernanda", "Patrícia", "Camila", "Aline", "Beatriz", "Larissa", "Vanessa", "Carla", "Luciana",
  "João", "José", "Carlos", "Paulo", "Lucas", "Marcos", "Rafael", "Pedro", "Gustavo", "Thiago", "Bruno", "André",
];
const CHILD_NAMES = [
  "Miguel", "Arthur", "Helena", "Alice", "Laura", "Heitor", "Theo", "Davi", "Valentina", "Sophia", "Gael", "Bernardo",
  "Manuela", "Isabela", "Lorena", "Samuel", "Benício", "Cecília", "Lívia", "Enzo", "Maitê", "Rafaela", "Joaquim", "Lara",
];
const SURNAMES = [
  "Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes", "Costa", "Ribeiro",
  "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa", "Rocha", "Dias", "Nascimento", "Araújo",
];
const STREETS = ["Rua das Flores", "Avenida Brasil", "Rua São Paulo", "Rua XV de Novembro", "Avenida Getúlio Vargas", "Rua Sete de Setembro", "Rua Tiradentes", "Rua Rui Barbosa"];

/** A CPF (masked) with valid check digits, from a number: the generator's students need valid documents. */
const CPF_FUNCTION = `
create or replace function pg_temp.gen_cpf(base bigint) returns text language plpgsql immutable as $$
declare t text := lpad((base % 1000000000)::text, 9, '0'); s int := 0; c1 int; c2 int;
begin
  for i in 1..9 loop s := s + substr(t, i, 1)::int * (11 - i); end loop;
  c1 := 11 - s % 11; if c1 >= 10 then c1 := 0; end if;
  s := c1 * 2;
  for i in 1..9 loop s := s + substr(t, i, 1)::int * (12 - i); end loop;
  c2 := 11 - s % 11; if c2 >= 10 then c2 := 0; end if;
  t := t || c1 || c2;
  return substr(t, 1, 3) || '.' || substr(t, 4, 3) || '.' || substr(t, 7, 3) || '-' || substr(t, 10, 2);
end $$`;

/** One approved staff member (institution profile, consents) for every school with a plan. */
export async function generateStaff(sql: Sql, passwordHash: string) {
  await sql`
    create temp table gen_staff as
    select gen_random_uuid() as user_id, s.id as school_id, row_number() over (order by s.id) as n
    from schools s join subscriptions sub on sub.school_id = s.id and sub.status = 'active'`;
  await sql`insert into users (id, email, password_hash, email_confirmed_at) select user_id, 'equipe' || n || '@escolas.bench.eloescolar.com.br', ${passwordHash}, now() from gen_staff`;
  await sql`
    insert into profiles (user_id, profile_type, full_name, phone, position, school_id, school_name, state, city, neighborhood,
                          state_id, city_id, neighborhood_id, profile_completed)
    select g.user_id, 'institution', 'Secretaria ' || s.name, s.whatsapp, 'Secretário(a)', s.id, s.name, s.uf, s.city, s.neighborhood,
           s.state_id, s.city_id, s.neighborhood_id, true
    from gen_staff g join schools s on s.id = g.school_id`;
  await sql`
    insert into school_memberships (user_id, school_id, position, status, decided_at)
    select user_id, school_id, 'Secretário(a)', 'approved', now() from gen_staff`;
  await sql`
    insert into user_consents (user_id, terms_accepted, privacy_accepted, data_processing_consent, user_agent)
    select user_id, true, true, true, 'generate-scale' from gen_staff`;
  const [row] = await sql<[{ n: number }]>`select count(*)::int as n from gen_staff`;
  return row.n;
}

/**
 * Parents with complete profiles (guardian, student with a valid CPF, address, main school, proof
 * sent): three in four study at a basic-education school, and one in four has a second enrollment
 * at another school of the same city.
 */
export async function generateParents(sql: Sql, opts: ScaleOptions, passwordHash: string) {
  await sql.unsafe(CPF_FUNCTION);
  const [{ basic }] = await sql<[{ basic: number }]>`select count(*)::int as basic from schools s join categories c on c.id = s.category_id where c.name = 'Ed. Básica'`;
  await sql`
    create temp table gen_school_rn as
    select row_number() over (order by (c.name = 'Ed. Básica') desc, s.id) - 1 as rn, s.id
    from schools s join categories c on c.id = s.category_id`;
  await sql`create unique index on gen_school_rn (rn)`;
  await sql`
    create temp table gen_parents as
    select x.n, x.user_id, s.id as school_id, s.city_id, x.r1, x.r2, x.r3, x.r4
    from (
      select n::bigint as n, gen_random_uuid() as user_id, random() as r1, random() as r2, random() as r3, random() as r4,
             floor(case when random() < 0.75 then random() * ${basic} else random() * ${opts.schools} end)::int as school_rn
      from generate_series(1, ${opts.parents}) n
    ) x
    join gen_school_rn r on r.rn = least(x.school_rn, ${opts.schools - 1})
    join schools s on s.id = r.id`;
  await sql`create unique index on gen_parents (n)`;
  await sql`insert into users (id, email, password_hash, created_at, updated_at, email_confirmed_at)
            select user_id, 'responsavel' || n || '@pais.bench.eloescolar.com.br', ${passwordHash}, now() - r1 * interval '400 days', now() - r1 * interval '400 days', now() - r1 * interval '399 days' from gen_parents`;
  await sql`
    insert into profiles (user_id, profile_type, full_name, phone, relationship_type, state, city, neighborhood, state_id, city_id, neighborhood_id,
                          student_name, student_birth_date, student_cpf, student_address, student_address_complement, student_neighborhood,
                          student_zip_code, school_name, school_id, enrollment_proof_url, enrollment_proof_submitted, profile_completed,
                          created_at, updated_at)
    select p.user_id, 'parent',
           (${FIRST_NAMES}::text[])[1 + (p.n % ${FIRST_NAMES.length})] || ' ' || (${SURNAMES}::text[])[1 + ((p.n / 7) % ${SURNAMES.length})] || ' ' || (${SURNAMES}::text[])[1 + ((p.n / 3) % ${SURNAMES.length})],
           '(' || (11 + (p.n % 89)) || ') 9' || lpad(((p.n * 7919) % 10000)::text, 4, '0') || '-' || lpad(((p.n * 104729) % 10000)::text, 4, '0'),
           (select array_agg(name order by id) from relationship_types)[1 + floor(p.r2 * (select count(*) from relationship_types))::int],
           s.uf, s.city, s.neighborhood, s.state_id, s.city_id, s.neighborhood_id,
           (${CHILD_NAMES}::text[])[1 + (p.n % ${CHILD_NAMES.length})] || ' ' || (${SURNAMES}::text[])[1 + ((p.n / 3) % ${SURNAMES.length})],
           date '2008-01-01' + floor(p.r3 * 4700)::int,
           pg_temp.gen_cpf(100000000 + (p.n::bigint * 7919) % 899999999),
           (${STREETS}::text[])[1 + (p.n % ${STREETS.length})] || ', ' || (1 + p.n % 1999),
           case when p.r4 < 0.4 then 'Apto ' || (1 + p.n % 300) end,
           s.neighborhood,
           substr((10000000 + p.n * 7919 % 89999999)::text, 1, 5) || '-' || substr((10000000 + p.n * 7919 % 89999999)::text, 6, 3),
           s.name, s.id, p.user_id || '/comprovante.pdf', true, true,
           now() - p.r1 * interval '400 days', now() - p.r1 * interval '200 days'
    from gen_parents p join schools s on s.id = p.school_id`;
  await sql`
    insert into user_consents (user_id, terms_accepted, privacy_accepted, data_processing_consent, marketing_consent, user_agent, accepted_at)
    select user_id, true, true, true, r2 < 0.3, 'generate-scale', now() - r1 * interval '400 days' from gen_parents`;
  await sql`
    create temp table gen_city_schools as
    select city_id, row_number() over (partition by city_id order by id) - 1 as rn, id, name from schools`;
  await sql`create unique index on gen_city_schools (city_id, rn)`;
  const enrollments = await sql`
    insert into enrollments (user_id, school_id, institution_name, institution_type, student_name, period, start_date, status, created_at, updated_at)
    select p.user_id, cs.id, cs.name, 'escola', pr.student_name, (enum_range(null::enrollment_period))[1 + (p.n % 4)],
           date '2025-02-01' + (p.n % 200)::int, 'active', now() - p.r1 * interval '300 days', now() - p.r1 * interval '300 days'
    from gen_parents p
    join profiles pr on pr.user_id = p.user_id
    join (select city_id, count(*) as cnt from schools group by city_id) cc on cc.city_id = p.city_id
    join gen_city_schools cs on cs.city_id = p.city_id and cs.rn = floor(p.r3 * cc.cnt)::int
    where p.r4 < 0.25 and cs.id <> p.school_id`;
  return { parents: opts.parents, enrollments: enrollments.count };
}
