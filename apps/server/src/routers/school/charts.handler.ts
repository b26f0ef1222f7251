import { reciprocity } from "../stats/reciprocity";
import { weeklyVouchers } from "../stats/weekly-vouchers";
import type { StaffContext } from "./staff-context";

/** /home-instituicao's charts: vouchers per week (and their conversion) and the school's give and take. */
export async function schoolCharts({ ctx }: { ctx: StaffContext }) {
  const [weeks, give] = await Promise.all([weeklyVouchers(ctx.db, ctx.clock.now(), ctx.schoolId), reciprocity(ctx.db, ctx.schoolId)]);
  return { weeks, reciprocity: give };
}
