import type { SessionUser } from "../../auth/session";
import type { Context } from "../../trpc/init";

/** The context every admin handler receives (a signed-in admin). */
export type AdminCtx = Context & { user: SessionUser };
