import { schema } from "@elo/db";
import type { Harness } from "../harness";

const HOURS_48 = 48 * 60 * 60 * 1000;

/**
 * A place at the back of a benefit's line, straight into the table (joining is tested on its own);
 * `offered`: holding a slot for 48 hours, a slot that already left the benefit's free count. The
 * test clock moves on a second, so places made one after the other keep their order.
 */
export async function placeInLine(h: Pick<Harness, "db" | "clock">, discountId: string, userId: string, opts: { offered?: boolean } = {}) {
  const now = h.clock.now();
  h.clock.advance(1000);
  const [row] = await h.db
    .insert(schema.waitlistEntries)
    .values({
      discountId,
      userId,
      createdAt: now,
      status: opts.offered ? "offered" : "waiting",
      ...(opts.offered ? { offeredAt: now, offerExpiresAt: new Date(now.getTime() + HOURS_48) } : {}),
    })
    .returning();
  return row!;
}
