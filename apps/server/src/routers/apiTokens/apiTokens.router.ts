import { createApiTokenInput, revokeApiTokenInput } from "@elo/shared";
import { confirmedEmail, protectedProcedure, router } from "../../trpc/init";
import { createApiToken, listApiTokens, revokeApiToken } from "./apiTokens.handler";

/** Personal API tokens of the signed-in user. */
export const apiTokensRouter = router({
  list: protectedProcedure.query(listApiTokens),
  create: protectedProcedure.use(confirmedEmail).input(createApiTokenInput).mutation(createApiToken),
  revoke: protectedProcedure.input(revokeApiTokenInput).mutation(revokeApiToken),
});
