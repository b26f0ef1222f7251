import type { Context } from "../../trpc/init";
import { schoolsByPlan, schoolsByUf } from "../stats/network-overview";
import { weeklyVouchers } from "../stats/weekly-vouchers";

/** /admin-escolas' overview: schools by plan and by UF, the network's vouchers per week. */
export async function networkOverview({ ctx }: { ctx: Context }) {
  const [byPlan, byUf, weeks] = await Promise.all([schoolsByPlan(ctx.db), schoolsByUf(ctx.db), weeklyVouchers(ctx.db, ctx.clock.now(), null)]);
  return { byPlan, byUf, weeks };
}
