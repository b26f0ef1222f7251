import { schema } from "@elo/db";
import { and, desc, eq, sql } from "drizzle-orm";
import { logoAddress } from "../../storage/logo";
import type { Context } from "../../trpc/init";

const { schools, subscriptions, categories, discounts } = schema;

/**
 * The school shown in the parents' landing banner: a school with an active Gold plan when one
 * exists, else any school with an active plan, else none. Among equals one is picked at random so
 * every Gold school gets its turn. Its best active benefit is shown too, when it has one.
 */
export async function bannerHandler({ ctx }: { ctx: Context }) {
  const [school] = await ctx.db
    .select({
      id: schools.id,
      name: schools.name,
      logoUrl: schools.logoUrl,
      city: schools.city,
      uf: schools.uf,
      neighborhood: schools.neighborhood,
      niche: categories.name,
      planType: subscriptions.planType,
    })
    .from(schools)
    .innerJoin(subscriptions, and(eq(subscriptions.schoolId, schools.id), eq(subscriptions.status, "active")))
    .leftJoin(categories, eq(categories.id, schools.categoryId))
    .orderBy(sql`case when ${subscriptions.planType} = 'gold' then 0 else 1 end`, sql`random()`)
    .limit(1);
  if (!school) return null;
  const [best] = await ctx.db
    .select({ className: discounts.className, discountPercentage: discounts.discountPercentage })
    .from(discounts)
    .where(and(eq(discounts.schoolId, school.id), eq(discounts.status, "active"), sql`${discounts.numberOfStudents} > 0`))
    .orderBy(desc(discounts.discountPercentage))
    .limit(1);
  return { ...school, logoUrl: logoAddress(ctx.storage, school.logoUrl), bestBenefit: best ?? null };
}
