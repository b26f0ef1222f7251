/**
 * EXPLAIN ANALYZE of the queries that grow with the network, as the app sends them:
 *   DATABASE_URL=<a database filled by db:generate-scale> npx tsx bench/explain.ts > plans.md
 * Marketplace (a parent in São Paulo), the school's reserved-vouchers dialog (the school with most
 * vouchers) and the admin school search (a common and a rare name). Grants role admin to one
 * generated staff account of that database to call the admin search.
 */
import postgres from "postgres";
import { createSqlCapture } from "./lib/capture";
import type { CapturedStatement } from "./lib/pgbench";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const sql = postgres(url, { max: 1, onnotice: () => {} });
const capture = await createSqlCapture(url, "http://127.0.0.1:3000");

const [parent] = await sql<[{ id: string }]>`
  select p.user_id as id from profiles p join schools s on s.id = p.school_id join categories c on c.id = s.category_id
  where p.profile_type = 'parent' and s.city = 'São Paulo' and c.name = 'Ed. Básica' order by p.user_id limit 1`;
const [staff] = await sql<[{ id: string }]>`
  select m.user_id as id from school_memberships m
  where m.status = 'approved' order by (select count(*) from discount_transactions t where t.school_id = m.school_id) desc limit 1`;
const [admin] = await sql<[{ id: string }]>`select user_id as id from school_memberships where status = 'approved' order by user_id desc limit 1`;
await sql`insert into user_roles (user_id, role) values (${admin.id}, 'admin') on conflict do nothing`;

async function explain(title: string, statements: CapturedStatement[]) {
  const main = statements.filter((s) => /^\s*(select|with)/i.test(s.query));
  for (const st of main) {
    const rows = await sql.unsafe(`explain (analyze, buffers, costs off) ${st.query}`, st.params as never[]);
    console.log(`### ${title}\n\n\`\`\`sql\n${st.query.replace(/\s+/g, " ").trim()}\n\`\`\`\n\n\`\`\`\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\`\n`);
  }
}

const market = await capture.record(parent.id, (c) => c.marketplace.list());
await explain(`marketplace.list, first page (a parent in São Paulo: ${market.result.items.length} cards)`, market.statements.slice(-1));
const cursor = market.result.nextCursor;
if (cursor) {
  const next = await capture.record(parent.id, (c) => c.marketplace.list({ cursor }));
  await explain(`marketplace.list, second page (${next.result.items.length} cards)`, next.statements.slice(-1));
}
const reserved = await capture.record(staff.id, (c) => c.school.reservedDetails());
await explain(`school.reservedDetails (the school with most vouchers: ${reserved.result.length} rows)`, reserved.statements.slice(-1));
for (const search of ["aurora", "jequitiba 1"]) {
  const r = await capture.record(admin.id, (c) => c.admin.schools.list({ search }));
  await explain(`admin.schools.list, search "${search}" (${r.result.total} schools)`, r.statements.slice(-2));
}
await sql`delete from user_roles where user_id = ${admin.id} and role = 'admin'`;
await capture.close();
await sql.end();
