import {
  adminParentsListInput,
  incidentInput,
  incidentUpdateInput,
  adminProofOpenInput,
  adminProofQueueInput,
  adminSchoolListInput,
  adminSchoolPublicInput,
  adminSchoolUpdateInput,
  csvImportInput,
  membershipDecisionInput,
  outboxIdInput,
  proofIdInput,
  proofRefuseInput,
  schoolIdInput,
  schoolMergeInput,
} from "@elo/shared";
import { z } from "zod";
import { adminProcedure, router } from "../../trpc/init";
import { csvImportHandler } from "./csv/import.handler";
import { csvPreviewHandler } from "./csv/preview.handler";
import { schoolsCsvTemplate } from "./csv/template";
import { createIncident, editIncident, listIncidents } from "./incidents.handler";
import { uploadLogoHandler } from "./logo.handler";
import { decideMembershipHandler, pendingMembershipsHandler } from "./memberships.handler";
import { mergeSchoolsHandler } from "./merge.handler";
import { operationsOverview, resendEmail } from "./operations.handler";
import { networkOverview } from "./overview.handler";
import { listParentsHandler, parentsSummaryHandler } from "./parents.handler";
import { markReviewedHandler } from "./review.handler";
import { deleteSchoolHandler, listSchoolsHandler, removeLogoHandler, setSchoolPublicHiddenHandler, updateSchoolHandler } from "./schools.handler";
import { adminConfirmHandler, adminRefuseHandler } from "../verification/decide.handler";
import { networkVerificationFigures } from "../verification/figures";
import { adminOpenHandler } from "../verification/open.handler";
import { adminQueueHandler } from "../verification/queue.handler";

/** Administration: schools and their staff, CSV import, parents. Every procedure needs role admin. */
export const adminRouter = router({
  schools: router({
    list: adminProcedure.input(adminSchoolListInput).query(listSchoolsHandler),
    update: adminProcedure.input(adminSchoolUpdateInput).mutation(updateSchoolHandler),
    delete: adminProcedure.input(schoolIdInput).mutation(deleteSchoolHandler),
    removeLogo: adminProcedure.input(schoolIdInput).mutation(removeLogoHandler),
    /** multipart/form-data with `schoolId` and `file`. */
    uploadLogo: adminProcedure.input(z.instanceof(FormData)).mutation(uploadLogoHandler),
    merge: adminProcedure.input(schoolMergeInput).mutation(mergeSchoolsHandler),
    /** A school parents created leaves the review queue (origin parent_request → admin). */
    markReviewed: adminProcedure.input(schoolIdInput).mutation(markReviewedHandler),
    /** Schools by plan and UF, the network's vouchers per week. */
    overview: adminProcedure.query(networkOverview),
    /** Hides a school from the public pages, or shows it again (issue 26). */
    setPublicHidden: adminProcedure.input(adminSchoolPublicInput).mutation(setSchoolPublicHiddenHandler),
  }),
  memberships: router({
    pending: adminProcedure.query(pendingMembershipsHandler),
    approve: adminProcedure.input(membershipDecisionInput).mutation((opts) => decideMembershipHandler({ ...opts, approve: true })),
    reject: adminProcedure.input(membershipDecisionInput).mutation((opts) => decideMembershipHandler({ ...opts, approve: false })),
  }),
  csv: router({
    template: adminProcedure.query(() => ({ fileName: "template_escolas.csv", content: schoolsCsvTemplate() })),
    /** multipart/form-data with a `file` field: the body can exceed the JSON limit. */
    preview: adminProcedure.input(z.instanceof(FormData)).mutation(csvPreviewHandler),
    import: adminProcedure.input(csvImportInput).mutation(csvImportHandler),
  }),
  /** 'Operação' (/admin-operacao): outbox, scheduled jobs, backups, counts of now (issue 28). */
  operations: router({
    overview: adminProcedure.query(operationsOverview),
    /** 'Reenviar' a failing e-mail: queued once however many times it is clicked. */
    resendEmail: adminProcedure.input(outboxIdInput).mutation(resendEmail),
  }),
  parents: router({
    summary: adminProcedure.query(parentsSummaryHandler),
    list: adminProcedure.input(adminParentsListInput).query(listParentsHandler),
  }),
  /** The register of security incidents, kept 5 years (issue 27, decision 191). */
  incidents: router({
    list: adminProcedure.query(listIncidents),
    create: adminProcedure.input(incidentInput).mutation(createIncident),
    /** Status, art. 48 § 1 fields, communication dates; each edit appended to the incident's history (decision 195). */
    update: adminProcedure.input(incidentUpdateInput).mutation(editIncident),
  }),
  /** Enrollment proofs of schools without staff in the network (issue 21), on /admin-pais. */
  verifications: router({
    list: adminProcedure.input(adminProofQueueInput).query(adminQueueHandler),
    /** The network's backlog and the median time from proof to decision. */
    summary: adminProcedure.query(networkVerificationFigures),
    /** Needs a stated purpose (and a ticket for support); the parent is e-mailed (issue 27). */
    open: adminProcedure.input(adminProofOpenInput).mutation(adminOpenHandler),
    confirm: adminProcedure.input(proofIdInput).mutation(adminConfirmHandler),
    refuse: adminProcedure.input(proofRefuseInput).mutation(adminRefuseHandler),
  }),
});
