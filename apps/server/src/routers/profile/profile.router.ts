import { enrollmentInput, parentProfileInput, requestSchoolInput, saveEnrollmentSchoolInput, saveMainSchoolInput, uuid } from "@elo/shared";
import { z } from "zod";
import { parentProcedure, protectedProcedure, router } from "../../trpc/init";
import { meHandler } from "../auth/me.handler";
import { listEnrollmentsHandler, removeEnrollmentHandler, saveEnrollmentHandler, saveEnrollmentSchoolHandler } from "./enrollments.handler";
import { profileChanges } from "./events";
import { getProfileHandler } from "./get.handler";
import { requestSchoolHandler } from "./request-school.handler";
import { saveMainSchoolHandler, updateProfileHandler } from "./update.handler";

/** The parent's own profile (/meus-dados) and other enrollments (/add-escola). */
export const profileRouter = router({
  get: parentProcedure.query(getProfileHandler),
  update: parentProcedure.input(parentProfileInput).mutation(updateProfileHandler),
  saveMainSchool: parentProcedure.input(saveMainSchoolInput).mutation(saveMainSchoolHandler),
  requestSchool: parentProcedure.input(requestSchoolInput).mutation(requestSchoolHandler),
  /** Server-sent events: the signed-in user's header data each time their profile row changes (any server process). */
  changes: protectedProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const _ of profileChanges(ctx.dbHandle, ctx.user.id, signal)) {
      yield await meHandler({ ctx });
    }
  }),
  enrollments: router({
    list: parentProcedure.query(listEnrollmentsHandler),
    saveSchool: parentProcedure.input(saveEnrollmentSchoolInput).mutation(saveEnrollmentSchoolHandler),
    save: parentProcedure.input(enrollmentInput).mutation(saveEnrollmentHandler),
    remove: parentProcedure.input(z.object({ id: uuid }).strict()).mutation(removeEnrollmentHandler),
  }),
});
