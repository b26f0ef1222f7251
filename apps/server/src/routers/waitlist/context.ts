import type { UserContext } from "../school/staff-context";

/** The context of a signed-in parent (`parentProcedure`). */
export type ParentContext = UserContext;
