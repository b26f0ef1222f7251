import { PLAN_TYPES, PLANS, formatDate, landingMessages, schoolMessages, schoolUi, type PlanType } from "@elo/shared";
import { Alert, Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { PLAN_FEATURES, planPrice } from "./planCopy";
import { StaffGate } from "./StaffGate";

/** /plano for approved staff: current plan, the three plans and their features. */
export function PlansPage() {
  return (
    <StaffGate title={schoolUi.plansTitle}>
      <Plans />
    </StaffGate>
  );
}

function Plans() {
  const current = useQuery(trpc.plan.current.queryOptions());
  if (current.isPending) return <PageLoader />;
  const active = current.data?.planType ?? null;
  return (
    <Page title={schoolUi.plansTitle}>
      {active ? (
        <Card withBorder padding="md" data-testid="current-plan">
          <Group justify="space-between">
            <Text>
              {schoolUi.currentPlan}: <b>{PLANS[active].name}</b>
            </Text>
            {current.data && (
              <Text size="sm" c="dimmed">
                {formatDate(current.data.startedAt)}
              </Text>
            )}
          </Group>
        </Card>
      ) : (
        <Alert color="yellow" data-testid="no-plan">
          {schoolMessages.noPlanWarning}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {PLAN_TYPES.map((plan) => (
          <PlanCard key={plan} plan={plan} active={active} />
        ))}
      </SimpleGrid>
      <Text size="sm" c="dimmed" ta="center">
        {schoolUi.cancelAnytime}
      </Text>
    </Page>
  );
}

function PlanCard({ plan, active }: { plan: PlanType; active: PlanType | null }) {
  const info = PLANS[plan];
  const isCurrent = active === plan;
  return (
    <Card withBorder padding="lg" radius="md" shadow={info.highlighted ? "md" : undefined} style={info.highlighted ? { borderColor: "var(--mantine-color-teal-6)", borderWidth: 2 } : undefined} data-testid={`plan-${plan}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between">
          <Title order={2} size="h3">
            {info.name}
          </Title>
          {info.highlighted && <Badge color="teal">{schoolMessages.bestOffer}</Badge>}
        </Group>
        {info.monthlyPrice === null ? (
          <Text fw={700} size="lg">
            {schoolUi.free} · {schoolUi.unlimited}
          </Text>
        ) : (
          <Stack gap={2}>
            <Text td="line-through" c="dimmed">
              {planPrice(plan)}
            </Text>
            <Text fw={700} c="teal.9">
              {schoolMessages.planFree}
            </Text>
          </Stack>
        )}
        <List spacing="xs" size="sm" center>
          {PLAN_FEATURES.map((f) => {
            const has = f.plans.includes(plan);
            return (
              <List.Item
                key={f.label}
                c={has ? undefined : "dimmed"}
                icon={
                  <ThemeIcon size={20} radius="xl" color={has ? "teal" : "gray"} variant={has ? "filled" : "light"} role="img" aria-label={has ? landingMessages.featureIncluded : landingMessages.featureNotIncluded}>
                    {has ? <IconCheck size={12} /> : <IconX size={12} />}
                  </ThemeIcon>
                }
              >
                {f.label}
              </List.Item>
            );
          })}
        </List>
        <Button mt="auto" renderRoot={(props) => (isCurrent ? <button type="button" {...props} /> : <Link {...props} to="/confirmacao-plano" search={{ plan }} />)} disabled={isCurrent} variant={info.highlighted ? "filled" : "light"}>
          {isCurrent ? schoolUi.current : active ? schoolUi.change : schoolUi.choose}
        </Button>
      </Stack>
    </Card>
  );
}
