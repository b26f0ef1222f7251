import { Card, Group, Skeleton, Stack } from "@mantine/core";

/** The placeholder of one benefit card while the marketplace loads. */
export function BenefitCardSkeleton() {
  return (
    <Card withBorder padding="lg" radius="md" data-testid="benefit-skeleton" aria-hidden="true">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Skeleton height={56} width={56} radius="md" />
            <Skeleton height={14} width={120} />
          </Group>
          <Skeleton height={32} width={64} radius="xl" />
        </Group>
        <Skeleton height={20} width="70%" />
        <Skeleton height={12} width="30%" />
        <Skeleton height={32} width="50%" />
        <Skeleton height={12} width="60%" />
        <Skeleton height={12} width="40%" />
        <Skeleton height={36} mt="sm" />
      </Stack>
    </Card>
  );
}
