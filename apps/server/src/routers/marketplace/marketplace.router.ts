import { protectedProcedure, router } from "../../trpc/init";
import { listMarketplace } from "./list.handler";

export const marketplaceRouter = router({
  list: protectedProcedure.query(listMarketplace),
});
