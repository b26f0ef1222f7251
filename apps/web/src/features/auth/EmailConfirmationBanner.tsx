import { emailConfirmationMessages as m } from "@elo/shared";
import { Alert, Button, Container, Group, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";
import { useResendConfirmation } from "./useResendConfirmation";

/** On every page of a signed-in user whose address is not confirmed yet: 'Confirme seu e-mail'. */
export function EmailConfirmationBanner() {
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const resend = useResendConfirmation();
  if (!me || me.emailConfirmed) return null;
  return (
    <Alert color="yellow" radius={0} p="xs" data-testid="email-confirmation-banner">
      <Container size="lg">
        <Group justify="space-between" gap="xs">
          <div>
            <Text fw={700} size="sm">
              {m.bannerTitle}
            </Text>
            <Text size="sm">{m.bannerText(me.email)}</Text>
          </div>
          <Button size="xs" variant="outline" color="dark" loading={resend.isPending} onClick={() => resend.mutate()}>
            {m.resendButton}
          </Button>
        </Group>
      </Container>
    </Alert>
  );
}
