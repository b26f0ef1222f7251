import { claimByIdInput, claimCreateInput, claimGiveUpInput } from "@elo/shared";
import { confirmedParentProcedure, parentProcedure, router } from "../../trpc/init";
import { claimById } from "./by-id.handler";
import { createClaim } from "./create.handler";
import { giveUpVoucher } from "./give-up.handler";
import { claimHistory } from "./history.handler";

export const claimRouter = router({
  create: confirmedParentProcedure.meta({ sessionUnchanged: true }).input(claimCreateInput).mutation(createClaim),
  byId: parentProcedure.input(claimByIdInput).query(claimById),
  history: parentProcedure.query(claimHistory),
  giveUp: parentProcedure.meta({ sessionUnchanged: true }).input(claimGiveUpInput).mutation(giveUpVoucher),
});
