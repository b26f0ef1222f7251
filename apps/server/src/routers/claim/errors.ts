import { marketplaceMessages as m } from "@elo/shared";
import { AppError } from "../../trpc/errors";

/** Why a claim was refused; the client reads `meta.reason` to decide where to go. */
export type ClaimRefusal = "incomplete" | "proof_missing" | "duplicate" | "unavailable" | "verification_required";

export const incompleteProfile = () =>
  new AppError("PRECONDITION_FAILED", { title: m.incompleteTitle, description: m.incompleteDescription }, { reason: "incomplete" satisfies ClaimRefusal });
export const proofMissing = () =>
  new AppError("PRECONDITION_FAILED", { title: m.incompleteTitle, description: m.proofMissingDescription }, { reason: "proof_missing" satisfies ClaimRefusal });
export const alreadyClaimed = () =>
  new AppError("CONFLICT", { title: m.duplicateTitle, description: m.duplicateDescription }, { reason: "duplicate" satisfies ClaimRefusal });
export const unavailable = () =>
  new AppError("CONFLICT", { title: m.unavailableTitle, description: m.unavailableDescription }, { reason: "unavailable" satisfies ClaimRefusal });
export const verificationRequired = () =>
  new AppError(
    "PRECONDITION_FAILED",
    { title: m.verificationRequiredTitle, description: m.verificationRequiredDescription },
    { reason: "verification_required" satisfies ClaimRefusal },
  );
export const transactionFailed = () => new AppError("INTERNAL_SERVER_ERROR", { title: m.transactionFailed, description: m.claimErrorDescription });
export const transactionNotFound = () => new AppError("NOT_FOUND", { title: m.transactionNotFound });
