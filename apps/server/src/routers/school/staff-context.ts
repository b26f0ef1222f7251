import type { SessionUser } from "../../auth/session";
import type { Context } from "../../trpc/init";

/** The context of a signed-in user. */
export type UserContext = Context & { user: SessionUser };
/** The context of approved school staff (`schoolStaffProcedure`). */
export type StaffContext = UserContext & { schoolId: string };

/** Today's date (yyyy-MM-dd) in Brasília time: vouchers are valid through their last day there. */
export function todayInBrazil(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
