import { PLANS, schoolMessages, schoolUi, type PlanType } from "@elo/shared";
import { Button, Card, Group, List, Stack, Text, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { notifyError, notifyOk } from "../../lib/notify";
import { queryClient, trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { PLAN_FEATURES, planPrice } from "./planCopy";
import { StaffGate } from "./StaffGate";

/** /confirmacao-plano?plan=…: activates or changes the school's plan once; congratulates only after it was saved. */
export function PlanConfirmationPage({ plan }: { plan: PlanType }) {
  return (
    <StaffGate title={schoolUi.plansTitle} noneMessage={schoolMessages.planNeedsSchool(PLANS[plan].name)}>
      <PlanConfirmation plan={plan} />
    </StaffGate>
  );
}

function PlanConfirmation({ plan }: { plan: PlanType }) {
  const started = useRef<PlanType | null>(null);
  const choose = useMutation(
    trpc.plan.choose.mutationOptions({
      onSuccess: async (result) => {
        notifyOk(result.changed ? schoolMessages.planChanged : schoolMessages.planActivated);
        await queryClient.invalidateQueries({ queryKey: trpc.plan.pathKey() });
      },
      onError: () => notifyError(schoolMessages.planSaveError),
    }),
  );
  useEffect(() => {
    if (started.current === plan) return;
    started.current = plan;
    choose.mutate({ plan });
  }, [plan, choose]);

  if (choose.isPending || choose.isIdle) return <PageLoader />;
  const info = PLANS[plan];
  return (
    <Page size="sm">
      <Card withBorder padding="xl" radius="md">
        <Stack align="center" ta="center">
          {choose.isError ? (
            <Title order={1} size="h3" c="red" data-testid="plan-error">
              {schoolMessages.planSaveError}
            </Title>
          ) : (
            <>
              <Title order={1}>{schoolMessages.planCongrats}</Title>
              <Text size="lg">
                {schoolUi.planSummary}: <b>{info.name}</b>
              </Text>
              <Text c="dimmed">{info.monthlyPrice === null ? schoolUi.free : `${planPrice(plan)} · ${schoolMessages.planFree}`}</Text>
              <List size="sm" ta="left">
                {PLAN_FEATURES.filter((f) => f.plans.includes(plan)).map((f) => (
                  <List.Item key={f.label}>{f.label}</List.Item>
                ))}
              </List>
            </>
          )}
          <Group>
            <Button component={Link} to="/home-instituicao" variant="default">
              {schoolUi.back}
            </Button>
            <Button component={Link} to="/plano">
              {schoolUi.goToPlans}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Page>
  );
}
