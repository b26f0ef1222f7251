import postgres from "postgres";
import type { BenchSession } from "../lib/fixtures";
import { median } from "../lib/stats";
import type { MeasureContext } from "./context";

interface PlanNode {
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
}

/**
 * What one marketplace page costs PostgreSQL: shared buffers (hit + read) of the statement the
 * handler sends for the first page, EXPLAIN (ANALYZE, BUFFERS) for each of `sample` parents; with
 * the size of those parents' cities and of the offers open to the whole platform, the two things a
 * page's candidates come from (decision 100), so a reader can tell which one its cost follows.
 */
export async function measurePageCost(ctx: MeasureContext, sessions: BenchSession[], sample = 30) {
  const sql = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const parents = sessions.slice(0, sample);
    const buffers: number[] = [];
    for (const p of parents) {
      const { statements } = await ctx.capture.record(p.userId, (c) => c.marketplace.list());
      const page = statements.filter((s) => /^\s*(select|with)/i.test(s.query)).at(-1);
      if (!page) throw new Error("marketplace.list sent no select");
      const [row] = await sql.unsafe(`explain (analyze, buffers, format json) ${page.query}`, page.params as never[]);
      const raw = (row as Record<string, unknown>)["QUERY PLAN"];
      const plan = ((typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>)[0]!.Plan;
      buffers.push((plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0));
    }
    const ids = parents.map((p) => p.userId);
    const cities = await sql<Array<{ n: number }>>`
      select (select count(*)::int from schools s where s.city_id = ms.city_id) as n
      from profiles p join schools ms on ms.id = p.school_id where p.user_id = any(${ids}::uuid[])`;
    const [{ open }] = await sql<[{ open: number }]>`
      select count(*)::int as open from discounts where discount_scope = 'all_except_own' and status = 'active'`;
    return {
      parents: parents.length,
      buffersMedian: median(buffers),
      buffersMax: Math.max(...buffers),
      citySchoolsMedian: median(cities.map((c) => c.n)),
      citySchoolsMax: Math.max(...cities.map((c) => c.n)),
      platformOffers: open,
    };
  } finally {
    await sql.end();
  }
}
