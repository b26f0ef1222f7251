import { claimByIdInput, claimCreateInput } from "@elo/shared";
import { confirmedParentProcedure, parentProcedure, router } from "../../trpc/init";
import { claimById } from "./by-id.handler";
import { createClaim } from "./create.handler";
import { claimHistory } from "./history.handler";

export const claimRouter = router({
  create: confirmedParentProcedure.input(claimCreateInput).mutation(createClaim),
  byId: parentProcedure.input(claimByIdInput).query(claimById),
  history: parentProcedure.query(claimHistory),
});
