import { CANCEL_REASON_LABELS, marketplaceMessages as m, type CancelReason } from "@elo/shared";
import { defineEmailTemplate } from "./template";

export interface VoucherCancelledData {
  parentName: string | null;
  voucherCode: string;
  schoolName: string;
  className: string;
  reason: CancelReason;
}

/** Sent when the school's desk cancels a reserved voucher (decision 122): which one, and why. */
export const voucherCancelledEmail = defineEmailTemplate<VoucherCancelledData>({
  kind: "voucher-cancelled",
  label: "Voucher cancelado pela escola",
  content: (d, env) => ({
    subject: m.cancelMailSubject(d.schoolName),
    preheader: m.cancelReason(CANCEL_REASON_LABELS[d.reason]),
    heading: m.cancelMailHeading,
    blocks: [
      { kind: "paragraph", text: m.mailGreeting(d.parentName?.trim() || "responsável") },
      { kind: "paragraph", text: m.cancelMailIntro(d.schoolName, d.voucherCode, d.className) },
      { kind: "details", rows: [[m.voucherLabel, d.voucherCode], [m.schoolLabel, d.schoolName], [m.cancelMailReason, CANCEL_REASON_LABELS[d.reason]]] },
      { kind: "note", text: m.cancelMailNext },
      { kind: "button", label: m.cancelMailButton, url: `${env.publicOrigin}/painel-pais` },
    ],
  }),
  sample: () => ({ parentName: "Maria Silva", voucherCode: "4821-KQZT", schoolName: "Fluent English School", className: "Inglês Kids", reason: "nao_matriculado" }),
});
