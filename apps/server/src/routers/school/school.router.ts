import { benefitIdInput, benefitInput, benefitUpdateInput, id, institutionProfileInput, proofIdInput, proofRefuseInput, schoolDataInput, schoolPublicPageInput, voucherCancelInput, voucherCodeInput, voucherListInput } from "@elo/shared";
import { webhookCreateInput, webhookIdInput, webhookResendInput, webhookUpdateInput } from "@elo/shared";
import { z } from "zod";
import { institutionProcedure, router, schoolStaffProcedure } from "../../trpc/init";
import { createBenefit, deleteBenefit, listBenefits, setBenefitStatus, updateBenefit } from "./benefits.handler";
import { schoolCharts } from "./charts.handler";
import { deleteSchoolLogo, getSchoolData, saveSchoolData, setSchoolPublicPage } from "./data.handler";
import { reservedDetails, schoolHome } from "./home.handler";
import { getInstitutionProfile, saveInstitutionProfile, schoolsInNeighborhood } from "./membership.handler";
import { schoolConfirmHandler, schoolRefuseHandler } from "../verification/decide.handler";
import { schoolOpenHandler } from "../verification/open.handler";
import { schoolQueueHandler } from "../verification/queue.handler";
import { cancelVoucher, confirmVoucher, listVouchers, lookupVoucher } from "./vouchers.handler";
import { schoolWaitlist } from "./waitlist.handler";
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendEvent, rotateSecret, setEndpointStatus, testEndpoint, updateEndpoint } from "./webhooks.handler";

/** The institution side: membership, school data, benefits, counters and the voucher desk. */
export const schoolRouter = router({
  profile: router({
    get: institutionProcedure.query(getInstitutionProfile),
    save: institutionProcedure.input(institutionProfileInput).mutation(saveInstitutionProfile),
    schools: institutionProcedure.input(z.object({ neighborhoodId: id }).strict()).query(schoolsInNeighborhood),
  }),
  home: schoolStaffProcedure.query(schoolHome),
  reservedDetails: schoolStaffProcedure.query(reservedDetails),
  /** The home's charts (loaded after its counters). */
  charts: schoolStaffProcedure.query(schoolCharts),
  data: router({
    get: schoolStaffProcedure.query(getSchoolData),
    save: schoolStaffProcedure.input(schoolDataInput).mutation(saveSchoolData),
    deleteLogo: schoolStaffProcedure.mutation(deleteSchoolLogo),
    /** 'Mostrar a escola nas páginas públicas' (issue 26). */
    setPublicPage: schoolStaffProcedure.input(schoolPublicPageInput).mutation(setSchoolPublicPage),
  }),
  benefits: router({
    list: schoolStaffProcedure.query(listBenefits),
    create: schoolStaffProcedure.input(benefitInput).mutation(createBenefit),
    update: schoolStaffProcedure.input(benefitUpdateInput).mutation(updateBenefit),
    delete: schoolStaffProcedure.input(benefitIdInput).mutation(deleteBenefit),
    pause: schoolStaffProcedure.input(benefitIdInput).mutation(({ ctx, input }) => setBenefitStatus(ctx, input.id, "paused")),
    reactivate: schoolStaffProcedure.input(benefitIdInput).mutation(({ ctx, input }) => setBenefitStatus(ctx, input.id, "active")),
  }),
  vouchers: router({
    lookup: schoolStaffProcedure.input(voucherCodeInput).query(lookupVoucher),
    confirm: schoolStaffProcedure.input(voucherCodeInput).mutation(confirmVoucher),
    cancel: schoolStaffProcedure.input(voucherCancelInput).mutation(cancelVoucher),
    list: schoolStaffProcedure.input(voucherListInput).query(listVouchers),
  }),
  waitlist: router({
    list: schoolStaffProcedure.query(schoolWaitlist),
  }),
  /** 'Integrações (webhooks)' on /dados-da-escola (issue 29): endpoints, their log, 'Reenviar' and 'Testar'. */
  webhooks: router({
    list: schoolStaffProcedure.query(listEndpoints),
    create: schoolStaffProcedure.input(webhookCreateInput).mutation(createEndpoint),
    update: schoolStaffProcedure.input(webhookUpdateInput).mutation(updateEndpoint),
    pause: schoolStaffProcedure.input(webhookIdInput).mutation(({ ctx, input }) => setEndpointStatus(ctx, input.id, "paused")),
    resume: schoolStaffProcedure.input(webhookIdInput).mutation(({ ctx, input }) => setEndpointStatus(ctx, input.id, "active")),
    delete: schoolStaffProcedure.input(webhookIdInput).mutation(deleteEndpoint),
    rotateSecret: schoolStaffProcedure.input(webhookIdInput).mutation(rotateSecret),
    deliveries: schoolStaffProcedure.input(webhookIdInput).query(listDeliveries),
    resend: schoolStaffProcedure.input(webhookResendInput).mutation(resendEvent),
    test: schoolStaffProcedure.input(webhookIdInput).mutation(testEndpoint),
  }),
  /** 'Confirmar matrículas' (issue 21): proofs that name this school. */
  verifications: router({
    list: schoolStaffProcedure.query(schoolQueueHandler),
    /** A signed address of the proof's file; the opening is recorded. */
    open: schoolStaffProcedure.input(proofIdInput).mutation(schoolOpenHandler),
    confirm: schoolStaffProcedure.input(proofIdInput).mutation(schoolConfirmHandler),
    refuse: schoolStaffProcedure.input(proofRefuseInput).mutation(schoolRefuseHandler),
  }),
});
