import { createHash, randomBytes } from "node:crypto";
import type { Sql } from "postgres";

export interface BenchSession {
  userId: string;
  token: string;
}

/** The sessions row's id: the SHA-256 of the cookie's token (the app's hashSecret), what the session lookup asks for. */
export const sessionId = (token: string) => createHash("sha256").update(token).digest("hex");

/** Sessions created straight in the database, as the login would (only the SHA-256 of the token is stored). */
export async function createSessions(sql: Sql, userIds: string[]): Promise<BenchSession[]> {
  const sessions = userIds.map((userId) => ({ userId, token: randomBytes(25).toString("hex") }));
  for (let i = 0; i < sessions.length; i += 1000) {
    const rows = sessions.slice(i, i + 1000).map((s) => ({
      id: sessionId(s.token),
      user_id: s.userId,
      expires_at: new Date(Date.now() + 30 * 86_400_000),
      user_agent: "bench",
    }));
    await sql`insert into sessions ${sql(rows)}`;
  }
  return sessions;
}

/** A spread of generated parents (deterministic order), skipping the first `skip`. */
async function sampleParents(sql: Sql, count: number, salt: string, basicOnly = false): Promise<string[]> {
  const rows = await sql<Array<{ userId: string }>>`
    select p.user_id as "userId"
    from profiles p join schools s on s.id = p.school_id join categories c on c.id = s.category_id
    where p.profile_type = 'parent' and p.profile_completed and p.enrollment_proof_submitted
      and (${!basicOnly} or c.name = 'Ed. Básica')
      and p.user_id not in (select user_id from bench_used_parents)
    order by md5(p.user_id::text || ${salt})
    limit ${count}`;
  if (rows.length) await sql`insert into bench_used_parents ${sql(rows.map((r) => ({ user_id: r.userId })))}`;
  return rows.map((r) => r.userId);
}

/** Parents for the marketplace figure, with sessions, and their table for pgbench's \gset lookup. */
export async function marketplaceFixture(sql: Sql, count: number) {
  await sql`create table if not exists bench_used_parents (user_id uuid primary key)`;
  const ids = await sampleParents(sql, count, "market");
  const sessions = await createSessions(sql, ids);
  await sql`create table bench_market_parents (i int primary key, user_id uuid not null, session_id text not null)`;
  await sql`insert into bench_market_parents ${sql(sessions.map((s, i) => ({ i: i + 1, user_id: s.userId, session_id: sessionId(s.token) })))}`;
  return sessions;
}

export interface ClaimFixture {
  parents: BenchSession[];
  benefits: Array<{ id: string; schoolId: string }>;
  slotsEach: number;
  /** Pairs n < appPairs are claimed over HTTP; pgbench takes n >= appPairs from a sequence. Each pair is one (parent, benefit), used once. */
  appPairs: number;
  captureParent: string;
  /** The capture parent's session, for the claim captured over HTTP (decision 210). */
  captureSession: BenchSession;
  hot: { benefitId: string; slots: number; parents: BenchSession[] };
}

/**
 * A Gold language school in São Paulo whose benefits (open to every platform student) parents of
 * basic-education schools may all claim; each (parent, benefit) pair is used once. Also a "hot"
 * benefit with few slots for the oversell check.
 */
export async function claimFixture(sql: Sql, opts: { parents: number; benefits: number; slotsEach: number; hotSlots: number; hotParents: number }): Promise<ClaimFixture> {
  await sql`create table if not exists bench_used_parents (user_id uuid primary key)`;
  const [place] = await sql<[{ stateId: number; cityId: number; neighborhoodId: number }]>`
    select s.id as "stateId", c.id as "cityId", n.id as "neighborhoodId"
    from states s join cities c on c.state_id = s.id join neighborhoods n on n.city_id = c.id
    where s.code = 'SP' and c.name = 'São Paulo' and n.name = 'Pinheiros'`;
  const [niche] = await sql<[{ categoryId: number; modalityId: number }]>`
    select c.id as "categoryId", min(m.id) as "modalityId" from categories c join modalities m on m.category_id = c.id where c.name = 'Idiomas' group by c.id`;
  const [school] = await sql<[{ id: string }]>`
    insert into schools (name, name_key, uf, city, neighborhood, state_id, city_id, neighborhood_id, category_id, modality_id, origin)
    values ('Instituto de Idiomas Bench', 'instituto de idiomas bench', 'SP', 'São Paulo', 'Pinheiros', ${place.stateId}, ${place.cityId},
            ${place.neighborhoodId}, ${niche.categoryId}, ${niche.modalityId}, 'seed')
    returning id`;
  await sql`insert into subscriptions (school_id, plan_type) values (${school.id}, 'gold')`;
  const insertBenefit = (className: string, slots: number) => sql<[{ id: string }]>`
    insert into discounts (school_id, teaching_stage, category_id, modality_id, class_name, class_period, discount_scope, monthly_fee,
                           discount_percentage, discounted_fee, discount_validity, number_of_students)
    values (${school.id}, 'iniciante', ${niche.categoryId}, ${niche.modalityId}, ${className}, 'tarde', 'all_except_own', 480, 20, 384,
            'first_3_months', ${slots})
    returning id`;
  const benefits: ClaimFixture["benefits"] = [];
  for (let i = 0; i < opts.benefits; i++) {
    const [b] = await insertBenefit(`Inglês Bench ${i + 1}`, opts.slotsEach);
    benefits.push({ id: b.id, schoolId: school.id });
  }
  const [hot] = await insertBenefit("Inglês Bench - vagas disputadas", opts.hotSlots);

  // A reduced scale may have fewer unused basic-education parents than asked for: take what there is.
  const ids = await sampleParents(sql, opts.parents + 1 + opts.hotParents, "claim", true);
  const count = ids.length - 1 - opts.hotParents;
  if (count < 100) throw new Error(`only ${count} parents left for the claim figure: generate a larger scale`);
  const sessions = await createSessions(sql, ids);
  const parents = sessions.slice(0, count);
  const captureParent = sessions[count]!.userId;
  const hotParents = sessions.slice(count + 1);

  const total = count * opts.benefits;
  const appPairs = Math.floor(total / 2);
  await sql`create table bench_claim_parents (i int primary key, user_id uuid not null, session_id text not null)`;
  await sql`insert into bench_claim_parents ${sql(parents.map((p, i) => ({ i, user_id: p.userId, session_id: sessionId(p.token) })))}`;
  await sql`create table bench_claim_benefits (i int primary key, discount_id uuid not null, school_id uuid not null)`;
  await sql`insert into bench_claim_benefits ${sql(benefits.map((b, i) => ({ i, discount_id: b.id, school_id: b.schoolId })))}`;
  await sql`
    create table bench_claim_pairs as
    select n::bigint as n, p.user_id, p.session_id, b.discount_id, b.school_id
    from generate_series(0, ${total - 1}) n
    join bench_claim_parents p on p.i = n / ${opts.benefits}
    join bench_claim_benefits b on b.i = n % ${opts.benefits}`;
  await sql`alter table bench_claim_pairs add primary key (n)`;
  await sql.unsafe(`create sequence bench_claim_seq start ${appPairs}`);
  await sql`analyze bench_claim_pairs`;
  return { parents, benefits, slotsEach: opts.slotsEach, appPairs, captureParent, captureSession: sessions[count]!, hot: { benefitId: hot.id, slots: opts.hotSlots, parents: hotParents } };
}

/** Generated parents for the login figures (their password is the generator's). */
export async function loginFixture(sql: Sql, count: number) {
  await sql`create table if not exists bench_used_parents (user_id uuid primary key)`;
  const ids = await sampleParents(sql, count, "login");
  const rows = await sql<Array<{ email: string; passwordHash: string }>>`select email, password_hash as "passwordHash" from users where id = any(${ids}::uuid[])`;
  return rows;
}

/** Zero oversell: no benefit below 0 slots, and for the bench benefits slots consumed = vouchers issued = claims recorded. */
export async function oversellCheck(sql: Sql, fixture: ClaimFixture) {
  const ids = [...fixture.benefits.map((b) => b.id)];
  const [row] = await sql<[{ negative: number; consumed: number; vouchers: number; claims: number; hotLeft: number; hotVouchers: number }]>`
    select
      (select count(*)::int from discounts where number_of_students < 0) as negative,
      (select coalesce(sum(${fixture.slotsEach} - number_of_students), 0)::int from discounts where id = any(${ids}::uuid[])) as consumed,
      (select count(*)::int from discount_transactions where discount_id = any(${ids}::uuid[])) as vouchers,
      (select count(*)::int from claimed_discounts where discount_id = any(${ids}::uuid[])) as claims,
      (select number_of_students from discounts where id = ${fixture.hot.benefitId}) as "hotLeft",
      (select count(*)::int from discount_transactions where discount_id = ${fixture.hot.benefitId}) as "hotVouchers"`;
  return { ...row, ok: row.negative === 0 && row.consumed === row.vouchers && row.vouchers === row.claims && row.hotLeft >= 0 && row.hotVouchers === fixture.hot.slots - row.hotLeft };
}
