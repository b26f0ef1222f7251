import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { signedUrlOf } from "../../storage/storage";
import type { Context } from "../../trpc/init";

/** The signed-in user as the header and guards need it, or null. */
export async function meHandler({ ctx }: { ctx: Context }) {
  if (!ctx.user) return null;
  const [row] = await ctx.db
    .select({ fullName: schema.profiles.fullName, avatarUrl: schema.profiles.avatarUrl, emailConfirmedAt: schema.users.emailConfirmedAt })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userId, schema.users.id))
    .where(eq(schema.users.id, ctx.user.id));
  return {
    id: ctx.user.id,
    email: ctx.user.email,
    profileType: ctx.user.profileType,
    isAdmin: ctx.user.isAdmin,
    // Read from the row, not the session: the live profile stream re-sends this after the link is opened.
    emailConfirmed: row ? row.emailConfirmedAt !== null : ctx.user.emailConfirmed,
    fullName: row?.fullName ?? null,
    avatarUrl: await signedUrlOf(ctx.storage, "avatars", row?.avatarUrl),
  };
}
