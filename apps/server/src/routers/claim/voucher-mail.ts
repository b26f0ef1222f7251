import type { AppDeps } from "../../deps";
import { renderQueued, voucherEmail } from "../../mail/templates";
import type { ClaimedBenefit } from "./claim-discount";

/**
 * Renders the voucher e-mail that the claim statement queued with the claim (decision 102), with
 * the benefit's hold (decision 121). Best effort: a row left unrendered is rendered by the mailer
 * from its stored data.
 */
export async function renderVoucherEmail(deps: Pick<AppDeps, "mailer" | "config" | "logger">, claim: ClaimedBenefit) {
  try {
    await renderQueued(deps, claim.outboxId, voucherEmail, {
      parentName: claim.parentName,
      voucherCode: claim.voucherCode,
      transactionId: claim.transactionId,
      validUntil: claim.validUntil,
      hold: claim.hold,
      ...claim.discount,
    });
  } catch (error) {
    deps.logger.error({ err: error, transactionId: claim.transactionId }, "voucher e-mail could not be rendered; the mailer will render it");
  }
}
