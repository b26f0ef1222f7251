import { publicProcedure, router } from "../../trpc/init";
import { bannerHandler } from "./banner.handler";

/** Public data for the landing pages. */
export const landingRouter = router({
  banner: publicProcedure.query(bannerHandler),
});
