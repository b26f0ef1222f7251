import { waitlistBenefitInput } from "@elo/shared";
import { parentProcedure, router } from "../../trpc/init";
import { claimOffer } from "./claim-offer.handler";
import { joinWaitlist } from "./join.handler";
import { leaveWaitlist } from "./leave.handler";
import { myWaitlist } from "./mine.handler";

/** A parent's places in the waitlists of sold-out benefits (decision 123). */
export const waitlistRouter = router({
  join: parentProcedure.input(waitlistBenefitInput).mutation(joinWaitlist),
  leave: parentProcedure.input(waitlistBenefitInput).mutation(leaveWaitlist),
  mine: parentProcedure.query(myWaitlist),
  claimOffer: parentProcedure.input(waitlistBenefitInput).mutation(claimOffer),
});
