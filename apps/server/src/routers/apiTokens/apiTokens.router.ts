import { createApiTokenInput, revokeApiTokenInput } from "@elo/shared";
import { confirmedSessionProcedure, protectedProcedure, router, sessionOnlyProcedure } from "../../trpc/init";
import { createApiToken, listApiTokens, revokeApiToken } from "./apiTokens.handler";

/** Personal API tokens of the signed-in user: a token may list them, only the browser may create or revoke (decision 104). */
export const apiTokensRouter = router({
  list: protectedProcedure.query(listApiTokens),
  create: confirmedSessionProcedure.input(createApiTokenInput).mutation(createApiToken),
  revoke: sessionOnlyProcedure.input(revokeApiTokenInput).mutation(revokeApiToken),
});
