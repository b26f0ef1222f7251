import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cityPage, type PageContext } from "../../src/public-pages/pages";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { networkSchool } from "./helpers";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

/**
 * Issue 26's server figures at São Paulo's full-scale size (621 schools, ~1,100 benefits in the city),
 * on the test database: the render's time is printed for docs/performance.md (its goal is the
 * bench's), the gzipped sizes are asserted.
 */
describe("public pages' figures (issue 26)", () => {
  it("renders São Paulo's city page uncached (its time printed), and a school page's HTML and CSS stay under 30 KB gzipped", async () => {
    await h.db.execute(sql`
      insert into schools (name, name_key, uf, city, neighborhood, category_id, origin)
      select 'Escola Escala ' || g, 'escola escala ' || g, 'SP', 'Osasco', 'Bairro ' || (g % 40), (select id from categories order by id offset (g % 5) limit 1), 'admin'
      from generate_series(1, 621) g`);
    await h.db.execute(sql`insert into users (email, password_hash) select 'escala.' || g || '@teste.com.br', 'x' from generate_series(1, 400) g`);
    await h.db.execute(sql`
      insert into school_memberships (user_id, school_id, status)
      select u.id, s.id, 'approved' from
        (select id, row_number() over (order by email) n from users where email like 'escala.%') u
        join (select id, row_number() over (order by name_key) n from schools where name like 'Escola Escala %') s on s.n = u.n`);
    await h.db.execute(sql`insert into subscriptions (school_id, plan_type) select id, case when random() < 0.3 then 'gold'::plan_type else 'silver'::plan_type end from schools where name like 'Escola Escala %' and (hashtext(name) % 3) <> 0`);
    await h.db.execute(sql`
      insert into discounts (school_id, teaching_stage, category_id, modality_id, class_name, class_period, discount_scope, monthly_fee, discount_percentage, discounted_fee, discount_validity, number_of_students)
      select s.id, 'iniciante', m.category_id, m.id, 'Turma ' || k, 'tarde', (array['neighborhood','city','all_except_own'])[1 + (k % 3)]::discount_scope, 500, 10 + k * 5, 500 - (10 + k * 5) * 5, 'first_3_months', 5
      from schools s join subscriptions p on p.school_id = s.id cross join generate_series(1, 3) k
        join lateral (select id, category_id from modalities where category_id = s.category_id limit 1) m on true
      where s.name like 'Escola Escala %'`);
    const context: PageContext = { db: h.db, storage: h.deps.storage, origin: "http://localhost:3000", images: true };
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const started = performance.now();
      const page = await cityPage(context, "sp", "osasco");
      times.push(performance.now() - started);
      expect(page.kind).toBe("page");
    }
    const q = await import("../../src/public-pages/projection");
    for (const [name, run] of [["schools", () => q.citySchools(h.db, "SP", "osasco")], ["benefits", () => q.cityBenefits(h.db, "SP", "osasco", 30)], ["state", () => q.stateName(h.db, "SP")]] as const) {
      const t: number[] = [];
      for (let i = 0; i < 15; i++) {
        const s0 = performance.now();
        await run();
        t.push(performance.now() - s0);
      }
      console.log(JSON.stringify({ part: name, p50: +quantile(t, 0.5).toFixed(1) }));
    }
    const p50 = quantile(times.slice(5), 0.5);
    const p99 = quantile(times.slice(5), 0.99);
    const html = ((await cityPage(context, "sp", "osasco")) as { html: string }).html;
    // Printed, not asserted: its goal is `npm run bench`'s figure 8b, measured alone (a timed test on
    // a machine running the whole suite in parallel fails on the machine's load, not on the code).
    console.log(JSON.stringify({ cityUncachedMs: { p50: +p50.toFixed(1), p99: +p99.toFixed(1) }, cityBytes: html.length, cityGzip: gzipSync(html).length }));

    // A school page with many benefits: HTML and its inline CSS, gzipped.
    const big = await networkSchool(h, { name: "Escola de Muitos Benefícios", uf: "SP", city: "Osasco", neighborhood: "Bairro 1", benefits: Array.from({ length: 12 }, (_, i) => ({ className: `Turma longa número ${i}`, percentage: 10 + i })) });
    const res = await fetch(`${server.url}/escolas/sp/osasco/${big.school.id}-escola-de-muitos-beneficios`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    const body = await res.text();
    const gz = gzipSync(body).length;
    console.log(JSON.stringify({ schoolBytes: body.length, schoolGzip: gz }));
    expect(gz).toBeLessThan(30 * 1024);
  });
});
