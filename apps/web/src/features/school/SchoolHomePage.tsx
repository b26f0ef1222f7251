import { profileMessages, schoolMessages, schoolUi, verificationMessages } from "@elo/shared";
import { Avatar, BackgroundImage, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import { notifyError } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { ChartsLoading } from "../charts/ChartsLoading";
import { PageLoader } from "../layout/PageLoader";
import { BenefitCard } from "./BenefitCard";
import { ConfirmDialog } from "../common/ConfirmDialog";
import { ReservedDetailsDialog } from "./ReservedDetailsDialog";
import { StaffGate } from "./StaffGate";
import { useBenefitStatus } from "./useBenefitStatus";

// @mantine/charts and recharts (about 100 KB gzip) load with the charts, after the counters.
const SchoolCharts = lazy(() => import("./SchoolCharts"));

/** /home-instituicao for approved staff; others see their membership state. */
export function SchoolHomePage() {
  return (
    <StaffGate>
      <SchoolHome />
    </StaffGate>
  );
}

function SchoolHome() {
  const navigate = useNavigate();
  const home = useQuery(trpc.school.home.queryOptions());
  const benefits = useQuery(trpc.school.benefits.list.queryOptions());
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [pausing, setPausing] = useState<string | null>(null);
  const { pause, reactivate } = useBenefitStatus();

  const failed = home.isError || benefits.isError;
  useEffect(() => {
    if (!failed) return;
    notifyError({ title: profileMessages.loadErrorTitle, description: schoolMessages.dashboardLoadError });
    void navigate({ to: "/login", replace: true });
  }, [failed, navigate]);

  if (home.isPending || benefits.isPending || failed) return <PageLoader />;
  const { school, counters, hero } = home.data;
  const place = [school.city, school.uf].filter(Boolean).join("/");

  return (
    <>
      <BackgroundImage src={`/hero/${hero}.svg`} h={600} data-testid="school-hero" data-hero={hero}>
        <Box h="100%" style={{ background: "linear-gradient(90deg, rgba(10,40,60,.8) 0%, rgba(10,40,60,.5) 60%, rgba(10,40,60,.15) 100%)" }}>
          <Container size="lg" h="100%">
            <Stack justify="center" h="100%" gap="md" maw={560}>
              <Avatar src={school.logoUrl} size={96} radius="md" bg="white" alt={school.name}>
                {school.name.charAt(0)}
              </Avatar>
              <Title order={1} c="white">
                {school.name}
              </Title>
              <Text c="white" size="lg">
                {[school.modality, place].filter(Boolean).join(" · ")}
              </Text>
              <Group>
                <Button component={Link} to="/dados-da-escola" variant="white">
                  {schoolMessages.editData}
                </Button>
              </Group>
            </Stack>
          </Container>
        </Box>
      </BackgroundImage>
      <Container size="lg" py="xl">
        <Stack gap="xl">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Counter label={schoolMessages.reservedCounter} value={String(counters.reserved)} testId="counter-reserved">
              <Button size="xs" variant="light" onClick={() => setDetailsOpen(true)}>
                {schoolMessages.details}
              </Button>
            </Counter>
            <Counter label={schoolMessages.pausedCounter} value={String(counters.paused)} testId="counter-paused" />
            <Counter label={schoolMessages.availableCounter} value={String(counters.available)} testId="counter-available" />
            <Counter label={schoolMessages.conversionCounter} value={`${counters.conversionRate.toLocaleString("pt-BR")}%`} testId="counter-conversion">
              <Text size="xs" c="dimmed">
                {counters.used}/{counters.issued} {schoolUi.conversionNote}
              </Text>
            </Counter>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Counter label={verificationMessages.homeVerified} value={String(home.data.verification.verifiedFamilies)} testId="counter-verified" />
            <Counter label={verificationMessages.homeWaiting} value={String(home.data.verification.waitingProofs)} testId="counter-waiting">
              <Button size="xs" variant="light" component={Link} to="/confirmar-matriculas">
                {verificationMessages.pageTitle}
              </Button>
            </Counter>
          </SimpleGrid>

          <Suspense fallback={<ChartsLoading />}>
            <SchoolCharts />
          </Suspense>

          <Group justify="space-between">
            <Title order={2}>{schoolMessages.myBenefits}</Title>
            <Button component={Link} to="/painel-de-beneficios" variant="light">
              {schoolMessages.manageBenefits}
            </Button>
          </Group>
          {benefits.data.length === 0 ? (
            <Card withBorder padding="xl">
              <Stack align="center">
                <Text>{schoolMessages.noBenefits}</Text>
                <Button component={Link} to="/painel-de-beneficios">
                  {schoolMessages.createFirst}
                </Button>
              </Stack>
            </Card>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {benefits.data.map((b) => (
                <BenefitCard
                  key={b.id}
                  benefit={b}
                  actions={
                    b.status === "active" ? (
                      <Button size="xs" color="orange" variant="light" onClick={() => setPausing(b.id)}>
                        {schoolMessages.pause}
                      </Button>
                    ) : (
                      <Button size="xs" color="teal" variant="light" loading={reactivate.isPending && reactivate.variables?.id === b.id} onClick={() => reactivate.mutate({ id: b.id })}>
                        {schoolMessages.reactivate}
                      </Button>
                    )
                  }
                />
              ))}
            </SimpleGrid>
          )}
        </Stack>
      </Container>
      <ReservedDetailsDialog opened={detailsOpen} onClose={() => setDetailsOpen(false)} />
      <ConfirmDialog
        opened={!!pausing}
        title={schoolUi.confirmPauseTitle}
        text={schoolUi.confirmPauseText}
        confirmLabel={schoolUi.confirmPause}
        loading={pause.isPending}
        onClose={() => setPausing(null)}
        onConfirm={() => pausing && pause.mutate({ id: pausing }, { onSettled: () => setPausing(null) })}
      />
    </>
  );
}

function Counter({ label, value, testId, children }: { label: string; value: string; testId: string; children?: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text fw={800} fz={32} data-testid={`${testId}-value`}>
          {value}
        </Text>
        {children}
      </Stack>
    </Card>
  );
}
