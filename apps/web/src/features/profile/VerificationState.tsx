import { formatDate, PROOF_REFUSAL_REASON_LABELS, verificationMessages as m } from "@elo/shared";
import { Alert, Text } from "@mantine/core";
import type { ParentProfile } from "./types";

export type Verification = ParentProfile["verification"];

/** What the school (or the platform's team) decided about this enrollment's proof (issue 21). */
export function VerificationState({ verification: v }: { verification: Verification }) {
  if (v.status === "none") return null;
  const still = v.validUntil && v.status !== "verificado" ? <Text size="sm">{m.stillVerifiedUntil(formatDate(v.validUntil))}</Text> : null;
  if (v.status === "enviado") {
    return (
      <Alert color="blue" variant="light" data-testid="verification-state">
        <Text size="sm">{m.stateSent}</Text>
        {still}
      </Alert>
    );
  }
  if (v.status === "recusado") {
    const reason = [v.refusalReason ? PROOF_REFUSAL_REASON_LABELS[v.refusalReason] : null, v.refusalNote].filter(Boolean).join(": ");
    return (
      <Alert color="red" variant="light" data-testid="verification-state">
        <Text size="sm">{m.stateRefused(reason)}</Text>
        <Text size="sm">{m.stateRefusedAction}</Text>
        {still}
      </Alert>
    );
  }
  if (v.lapsedOn) {
    return (
      <Alert color="orange" variant="light" data-testid="verification-state">
        <Text size="sm">{m.stateLapsed(formatDate(v.lapsedOn))}</Text>
      </Alert>
    );
  }
  return (
    <Alert color="teal" variant="light" data-testid="verification-state">
      <Text size="sm">{m.stateVerified(v.decidedBy ?? m.platformTeam, v.decidedAt ? formatDate(v.decidedAt) : "")}</Text>
      {v.validUntil && <Text size="sm">{m.stateVerifiedUntil(formatDate(v.validUntil))}</Text>}
    </Alert>
  );
}
