import { marketplaceListInput } from "@elo/shared";
import { protectedProcedure, router } from "../../trpc/init";
import { listMarketplace } from "./list.handler";

export const marketplaceRouter = router({
  list: protectedProcedure.input(marketplaceListInput).query(listMarketplace),
});
