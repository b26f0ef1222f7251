import { claimByIdInput, claimCreateInput } from "@elo/shared";
import { confirmedEmail, parentProcedure, router } from "../../trpc/init";
import { claimById } from "./by-id.handler";
import { createClaim } from "./create.handler";
import { claimHistory } from "./history.handler";

export const claimRouter = router({
  create: parentProcedure.use(confirmedEmail).input(claimCreateInput).mutation(createClaim),
  byId: parentProcedure.input(claimByIdInput).query(claimById),
  history: parentProcedure.query(claimHistory),
});
