import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../lib/trpc";

type Outputs = inferRouterOutputs<AppRouter>;
/** What /meus-dados loads for a parent. */
export type ParentProfile = NonNullable<Outputs["profile"]["get"]>;
export type ProfileSchool = NonNullable<ParentProfile["school"]>;
/** One row of /add-escola's list. */
export type OtherEnrollment = Outputs["profile"]["enrollments"]["list"][number];
