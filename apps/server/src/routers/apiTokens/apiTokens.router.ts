import { createApiTokenInput, revokeApiTokenInput } from "@elo/shared";
import { confirmedUserProcedure, protectedProcedure, router } from "../../trpc/init";
import { createApiToken, listApiTokens, revokeApiToken } from "./apiTokens.handler";

/** Personal API tokens of the signed-in user. */
export const apiTokensRouter = router({
  list: protectedProcedure.query(listApiTokens),
  create: confirmedUserProcedure.input(createApiTokenInput).mutation(createApiToken),
  revoke: protectedProcedure.input(revokeApiTokenInput).mutation(revokeApiToken),
});
