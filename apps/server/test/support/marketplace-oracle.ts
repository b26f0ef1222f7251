import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/raw";
import { admittedBy } from "../../src/routers/marketplace/visibility";
import type { Harness } from "./harness";

type Api = Awaited<ReturnType<Harness["caller"]>>;

export interface SeenCard {
  id: string;
  gold: boolean;
}

/**
 * What DECISIONS.md's rules admit for one parent, in page order (Gold first, newest, id): the
 * rules as visibility.ts words them for the claim, checked on every active benefit, with the Gold
 * flag read from the plans. The oracle the read model (decision 145) is compared with.
 */
export async function admittedInPageOrder(h: Pick<Harness, "db">, userId: string): Promise<SeenCard[]> {
  return queryRows<SeenCard>(
    h.db,
    sql`
    select d.id, exists (select 1 from subscriptions g where g.school_id = s.id and g.status = 'active' and g.plan_type = 'gold') as gold
    from discounts d
    join schools s on s.id = d.school_id
    cross join (select sc.* from profiles p join schools sc on sc.id = p.school_id where p.user_id = ${userId} and p.profile_type = 'parent') ms
    where d.status = 'active' and ${admittedBy(userId)}
    order by gold desc, d.created_at desc, d.id`,
  );
}

/** Every card marketplace.list shows the caller, page after page of `limit`. */
export async function listedInPageOrder(api: Api, limit: number): Promise<SeenCard[]> {
  const cards: SeenCard[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await api.marketplace.list({ cursor, limit });
    cards.push(...page.items.map((i) => ({ id: i.discountId, gold: i.gold })));
    cursor = page.nextCursor;
    if (!cursor) return cards;
  }
  throw new Error("more than 1000 pages");
}

/** Rows of marketplace_offers that its view does not have (extra) or that it lacks (missing): none when in step. */
export async function readModelDrift(h: Pick<Harness, "db">) {
  const columns = sql.raw("school_id, discount_id, place_key, gold, created_at, niche_id");
  return queryRows<{ drift: string; discount_id: string; place_key: string }>(
    h.db,
    sql`
    (select 'missing' as drift, ${columns} from marketplace_offers_expected except select 'missing', ${columns} from marketplace_offers)
    union all
    (select 'extra', ${columns} from marketplace_offers except select 'extra', ${columns} from marketplace_offers_expected)`,
  );
}
