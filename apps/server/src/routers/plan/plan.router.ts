import { planChoiceInput } from "@elo/shared";
import { router, schoolStaffProcedure } from "../../trpc/init";
import { choosePlan, currentPlan } from "./plan.handler";

/** The school's plan (/plano, /confirmacao-plano). */
export const planRouter = router({
  current: schoolStaffProcedure.query(currentPlan),
  choose: schoolStaffProcedure.input(planChoiceInput).mutation(choosePlan),
});
