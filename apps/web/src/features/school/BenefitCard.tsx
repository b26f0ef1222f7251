import { CLASS_PERIOD_LABELS, DISCOUNT_VALIDITY_LABELS, formatBRL, formatDate, schoolMessages, schoolUi, TEACHING_STAGE_LABELS, waitlistMessages, type ClassPeriod, type DiscountValidity, type TeachingStage } from "@elo/shared";
import { Badge, Card, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";

export interface BenefitCardData {
  id: string;
  className: string;
  teachingStage: TeachingStage;
  classPeriod: ClassPeriod;
  status: "active" | "paused";
  createdAt: Date;
  discountPercentage: number;
  monthlyFee: number;
  discountedFee: number;
  numberOfStudents: number;
  discountValidity: DiscountValidity;
  holdDays: number | null;
  requiresVerifiedEnrollment?: boolean;
}

/**
 * One benefit as the school sees it: class, 'Pausado' tag, creation date, percentage, slots, validity,
 * hold and, when families wait for it, its waitlist (decision 123).
 */
export function BenefitCard({ benefit, actions, waitlist }: { benefit: BenefitCardData; actions?: ReactNode; waitlist?: { waiting: number; offered: number } }) {
  return (
    <Card withBorder padding="md" radius="md" data-testid="benefit-card" h="100%">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={700} lineClamp={2}>
            {benefit.className}
          </Text>
          <Group gap={4} wrap="nowrap">
            {benefit.requiresVerifiedEnrollment && (
              <Badge color="teal" variant="light">
                {schoolUi.requireVerifiedTag}
              </Badge>
            )}
            {benefit.status === "paused" && (
              <Badge color="gray" variant="filled">
                {schoolMessages.pausedTag}
              </Badge>
            )}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {TEACHING_STAGE_LABELS[benefit.teachingStage]} · {CLASS_PERIOD_LABELS[benefit.classPeriod]} · {schoolUi.createdOn} {formatDate(benefit.createdAt)}
        </Text>
        <Group gap="xs" align="baseline">
          <Text fw={800} size="xl" c="teal.9">
            {benefit.discountPercentage.toLocaleString("pt-BR")}%
          </Text>
          <Text size="sm" td="line-through" c="dimmed">
            {formatBRL(benefit.monthlyFee)}
          </Text>
          <Text size="sm" fw={600}>
            {formatBRL(benefit.discountedFee)}
          </Text>
        </Group>
        <Text size="sm">
          {schoolUi.slots}: <b>{benefit.numberOfStudents}</b>
        </Text>
        <Text size="sm">
          {schoolUi.validity}: {DISCOUNT_VALIDITY_LABELS[benefit.discountValidity]}
        </Text>
        {benefit.holdDays !== null && <Text size="sm">{schoolUi.holdDaysShort(benefit.holdDays)}</Text>}
        {waitlist && waitlist.waiting + waitlist.offered > 0 && (
          <Stack gap={0} data-testid="school-waitlist">
            <Text size="sm" fw={600} c="blue.8" title={waitlistMessages.schoolHint}>
              {waitlistMessages.schoolCount(waitlist.waiting)}
            </Text>
            {waitlist.offered > 0 && (
              <Text size="xs" c="dimmed">
                {waitlistMessages.schoolOffers(waitlist.offered)}
              </Text>
            )}
          </Stack>
        )}
        {actions && (
          <Group gap="xs" mt="auto" pt="xs">
            {actions}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
