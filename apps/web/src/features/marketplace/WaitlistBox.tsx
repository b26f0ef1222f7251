import { formatDateTime, waitlistMessages as w } from "@elo/shared";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { useWaitlist } from "./useWaitlist";

export interface WaitlistPlace {
  status: "waiting" | "offered";
  position: number | null;
  offerExpiresAt: Date | null;
}

/**
 * A benefit's waitlist, for the parent (decision 123): 'Entrar na lista de espera' on a sold-out
 * card; the position and 'Sair da lista de espera' while waiting; the held slot with its deadline,
 * 'Aproveitar a vaga' and 'Recusar a vaga' when it was offered.
 */
export function WaitlistBox({ discountId, place }: { discountId: string; place: WaitlistPlace | null }) {
  const actions = useWaitlist(discountId);
  if (place?.status === "offered") {
    return (
      <Alert color="teal" p="sm" data-testid="waitlist-offer">
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            {w.offerOpen(place.offerExpiresAt ? formatDateTime(place.offerExpiresAt) : "")}
          </Text>
          <Group gap="xs">
            <Button color="teal" size="sm" loading={actions.pending.claimOffer} disabled={actions.busy} onClick={actions.claimOffer}>
              {w.claimOffer}
            </Button>
            <Button variant="subtle" color="gray" size="sm" loading={actions.pending.leave} disabled={actions.busy} onClick={actions.leave}>
              {w.declineOffer}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (place?.status === "waiting") {
    return (
      <Group justify="space-between" gap="xs" data-testid="waitlist-waiting">
        <Text size="sm" fw={600} c="blue.8">
          {w.position(place.position ?? 1)}
        </Text>
        <Button variant="subtle" color="gray" size="compact-sm" loading={actions.pending.leave} onClick={actions.leave}>
          {w.leave}
        </Button>
      </Group>
    );
  }
  return (
    <Button variant="light" fullWidth loading={actions.pending.join} onClick={actions.join}>
      {w.join}
    </Button>
  );
}
