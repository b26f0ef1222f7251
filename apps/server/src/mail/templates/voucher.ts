import { DISCOUNT_VALIDITY_LABELS, formatBRL, formatDate, marketplaceMessages as m, voucherDeskAddress, voucherQrMessages as qr, type DiscountValidity } from "@elo/shared";
import { voucherQrPng } from "../../vouchers/qr";
import { defineEmailTemplate } from "./template";

export interface VoucherMailData {
  parentName: string | null;
  voucherCode: string;
  transactionId: string;
  schoolName: string;
  className: string;
  discountPercentage: number;
  monthlyFee: number;
  discountedFee: number;
  discountValidity: DiscountValidity;
  /** Last valid day, yyyy-MM-dd. */
  validUntil: string;
  /** The benefit's hold in days and its last day (decision 121); absent or null without one. */
  hold?: { days: number; presentBy: string } | null;
}

/** The QR code's attachment: the HTML shows it as `cid:` (decision 140). */
const QR_CID = "voucher-qr@eloescolar";

const pct = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

/** Sent after a claim (beyond the spec): the voucher and its QR code, the benefit, its fees and validity, and the three notes. */
export const voucherEmail = defineEmailTemplate<VoucherMailData>({
  kind: "voucher",
  label: "Voucher de desconto",
  content: (d, env) => ({
    subject: m.mailSubject(d.schoolName),
    preheader: `${m.voucherLabel}: ${d.voucherCode}`,
    heading: m.reservedTitle,
    blocks: [
      { kind: "paragraph", text: m.mailGreeting(d.parentName?.trim() || "responsável") },
      { kind: "paragraph", text: m.mailIntro },
      {
        kind: "details",
        rows: [
          [m.voucherLabel, d.voucherCode],
          [m.schoolLabel, d.schoolName],
          [m.mailBenefit, `${d.className} (${m.percentOff(pct.format(d.discountPercentage))})`],
          [m.discountedFeeLabel, formatBRL(d.discountedFee)],
          [m.normalFeeLabel, formatBRL(d.monthlyFee)],
          [m.validityLabel, DISCOUNT_VALIDITY_LABELS[d.discountValidity]],
          [m.mailValidUntil, formatDate(d.validUntil)],
          ...(d.hold ? [[m.mailPresentBy, formatDate(d.hold.presentBy)] as const] : []),
        ],
      },
      { kind: "image", cid: QR_CID, alt: qr.alt(d.voucherCode), size: 180, caption: qr.hint },
      ...(d.hold ? [{ kind: "paragraph" as const, text: m.holdNote(d.hold.days) }] : []),
      { kind: "note", text: m.officeNote },
      { kind: "note", text: m.notEnrollmentNote },
      { kind: "note", text: m.tuitionNote },
      { kind: "button", label: m.mailButton, url: `${env.publicOrigin}/confirmacao-desconto?transaction=${d.transactionId}` },
    ],
  }),
  inlineImages: async (d, env) => [{ cid: QR_CID, filename: `voucher-${d.voucherCode}.png`, contentType: "image/png", content: await voucherQrPng(voucherDeskAddress(env.publicOrigin, d.voucherCode)) }],
  sample: () => ({
    parentName: "Maria Silva",
    voucherCode: "4821-KQZT",
    transactionId: "00000000-0000-4000-8000-000000000000",
    schoolName: "Fluent English School",
    className: "Inglês Kids",
    discountPercentage: 30,
    monthlyFee: 420,
    discountedFee: 294,
    discountValidity: "first_3_months",
    validUntil: "2026-03-31",
    hold: { days: 7, presentBy: "2026-01-07" },
  }),
});
