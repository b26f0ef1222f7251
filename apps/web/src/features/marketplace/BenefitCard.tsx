import { Anchor, Avatar, Badge, Box, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { DISCOUNT_VALIDITY_LABELS, emailConfirmationMessages, formatBRL, marketplaceMessages as m } from "@elo/shared";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { claimButton, percentOff, slotsText } from "./format";
import type { HelpingSchool, MarketplaceBenefit } from "./types";

// Only sold-out cards show it: it loads after the first paint of /home (docs/decisions/082-first-load-budget.md).
const WaitlistBox = lazy(() => import("./WaitlistBox").then((m) => ({ default: m.WaitlistBox })));

const initial = (name: string) => name.trim().charAt(0).toUpperCase() || "E";

interface BenefitCardProps {
  benefit: MarketplaceBenefit;
  /** The viewer's own network schools: the same on every card, so the list sends them once. */
  helpingSchools: HelpingSchool[];
  onClaim: (b: MarketplaceBenefit) => void;
  claiming: boolean;
  busy: boolean;
  /** Set while the viewer's address is unconfirmed: the button explains and offers the resend. */
  unconfirmed?: { onResend: () => void; resending: boolean };
  /** The viewer's main enrollment is verified and current (issue 21). */
  enrollmentVerified: boolean;
}

/** One marketplace benefit, as spec 1 §2 lists its parts. */
export function BenefitCard({ benefit, helpingSchools, onClaim, claiming, busy, unconfirmed, enrollmentVerified, chosen }: BenefitCardProps & { chosen?: boolean }) {
  const soldOut = benefit.numberOfStudents <= 0;
  const button = claimButton(benefit, busy && !claiming, !unconfirmed, enrollmentVerified);
  const needsVerification = benefit.requiresVerifiedEnrollment && !enrollmentVerified && !benefit.claimed;
  return (
    <Card
      withBorder
      shadow={benefit.gold ? "md" : "xs"}
      padding="lg"
      radius="md"
      data-testid="benefit-card"
      id={chosen ? `beneficio-${benefit.discountId}` : undefined}
      data-chosen={chosen ? "true" : undefined}
      style={chosen ? { borderColor: "var(--mantine-color-blue-6)", borderWidth: 3 } : benefit.gold ? { borderColor: "var(--mantine-color-yellow-5)", borderWidth: 2 } : undefined}
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar src={benefit.schoolLogoUrl} alt={benefit.schoolName} radius="md" size="lg" color="blue">
              {initial(benefit.schoolName)}
            </Avatar>
            <Box miw={0}>
              <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                {benefit.schoolName}
              </Text>
              {benefit.gold && (
                <Badge color="yellow" variant="light" size="sm">
                  {m.goldHighlight}
                </Badge>
              )}
            </Box>
          </Group>
          <Badge color="red" size="lg" variant="filled" style={{ flexShrink: 0 }}>
            {percentOff(benefit.discountPercentage)}
          </Badge>
        </Group>

        <Title order={3} fz="lg">
          {benefit.className}
        </Title>
        {benefit.requiresVerifiedEnrollment && (
          <Badge color="teal" variant="light" style={{ alignSelf: "flex-start" }}>
            {m.requiresVerified}
          </Badge>
        )}

        <Box>
          <Text size="sm" c="dimmed">
            {m.payOnly}
          </Text>
          <Text fz={28} fw={800} c="blue.8" lh={1.2}>
            {formatBRL(benefit.discountedFee)}
          </Text>
          <Text size="sm" fw={500}>
            {DISCOUNT_VALIDITY_LABELS[benefit.discountValidity]}
          </Text>
          <Text size="sm" c="dimmed">
            {m.after} {formatBRL(benefit.monthlyFee)}
          </Text>
          {benefit.holdDays !== null && (
            <Text size="sm" c="orange.9" mt={4} data-testid="hold-note">
              {m.holdNote(benefit.holdDays)}
            </Text>
          )}
        </Box>

        {helpingSchools.length > 0 && (
          <Box>
            <Text size="xs" c="dimmed" mb={4}>
              {m.helpingSchools}
            </Text>
            {/* The browser's own title tooltip: a floating one cost /home 15 KB of first load (decision 082). */}
            <Avatar.Group spacing="sm">
              {helpingSchools.map((s) => (
                <Avatar key={s.id} src={s.logoUrl} alt={s.name} title={s.name} radius="xl" color="teal" role="img" aria-label={s.name}>
                  {initial(s.name)}
                </Avatar>
              ))}
            </Avatar.Group>
          </Box>
        )}

        <Text size="sm" fw={500} c={soldOut ? "red.9" : "teal.9"} mt="auto">
          {slotsText(benefit.numberOfStudents)}
        </Text>
        {/* An offered slot is claimed from the offer box; the ordinary button would find no free slot. */}
        {benefit.waitlist?.status !== "offered" && (
          <Button fullWidth disabled={button.disabled} loading={claiming} onClick={() => onClaim(benefit)}>
            {button.label}
          </Button>
        )}
        {soldOut && !benefit.claimed && (
          <Suspense fallback={null}>
            <WaitlistBox discountId={benefit.discountId} place={benefit.waitlist} />
          </Suspense>
        )}
        {needsVerification && (
          <Text size="xs" c="dimmed">
            {m.requiresVerifiedHow}{" "}
            <Anchor component={Link} to="/meus-dados" size="xs">
              {m.completeProfileAction}
            </Anchor>
          </Text>
        )}
        {unconfirmed && !benefit.claimed && (
          <Text size="xs" c="dimmed">
            {emailConfirmationMessages.claimNeedsConfirmation}{" "}
            <Anchor component="button" type="button" size="xs" onClick={unconfirmed.onResend} disabled={unconfirmed.resending}>
              {emailConfirmationMessages.resendButton}
            </Anchor>
          </Text>
        )}
      </Stack>
    </Card>
  );
}
