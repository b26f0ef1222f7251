import { formatDecimal, PLANS, schoolMessages, schoolUi, type BenefitInput } from "@elo/shared";
import { Alert, Button, Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { BenefitCard } from "./BenefitCard";
import { BenefitForm, emptyBenefit, type BenefitFormValues } from "./BenefitForm";
import { ConfirmDialog } from "../common/ConfirmDialog";
import { StaffGate } from "./StaffGate";
import { useBenefitStatus } from "./useBenefitStatus";

/** /painel-de-beneficios for approved staff. */
export function BenefitsPanelPage() {
  return (
    <StaffGate title={schoolUi.benefitsPanelTitle} noneMessage={schoolMessages.noLinkedSchool}>
      <BenefitsPanel />
    </StaffGate>
  );
}

type Benefit = NonNullable<ReturnType<typeof useBenefits>["data"]>[number];
const useBenefits = () => useQuery(trpc.school.benefits.list.queryOptions());

const toFormValues = (b: Benefit): BenefitFormValues => ({
  teachingStage: b.teachingStage,
  categoryId: b.categoryId,
  modalityId: b.modalityId,
  className: b.className,
  classPeriod: b.classPeriod,
  discountScope: b.discountScope,
  monthlyFee: formatDecimal(b.monthlyFee),
  discountPercentage: b.discountPercentage,
  discountValidity: b.discountValidity,
  numberOfStudents: b.numberOfStudents,
  holdDays: b.holdDays ?? "",
  requiresVerifiedEnrollment: b.requiresVerifiedEnrollment,
});

function BenefitsPanel() {
  const queryClient = useQueryClient();
  const benefits = useBenefits();
  const plan = useQuery(trpc.plan.current.queryOptions());
  const [editing, setEditing] = useState<Benefit | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [pausing, setPausing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const { pause, reactivate } = useBenefitStatus("panel");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
  const resetForm = () => {
    setEditing(null);
    setFormKey((k) => k + 1);
  };

  // Same query (and cache) as the form's category select; watched here because the form remounts on every reset.
  const categories = useQuery(trpc.reference.categories.queryOptions());
  const waitlists = useQuery(trpc.school.waitlist.list.queryOptions());
  const waitlistOf = (id: string) => waitlists.data?.find((x) => x.discountId === id);

  useEffect(() => {
    if (benefits.isError) notifyFailure(benefits.error, { title: schoolMessages.discountsLoadError });
  }, [benefits.isError, benefits.error]);
  useEffect(() => {
    if (categories.error) notifyFailure(categories.error, { title: schoolMessages.categoriesLoadError, description: categories.error.message });
  }, [categories.error]);

  const create = useMutation(
    trpc.school.benefits.create.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.discountCreated);
        resetForm();
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.discountCreateError, description: error.message }),
    }),
  );
  const update = useMutation(
    trpc.school.benefits.update.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.discountUpdated);
        resetForm();
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.discountUpdateError, description: error.message }),
    }),
  );
  const remove = useMutation(
    trpc.school.benefits.delete.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.discountDeleted);
        if (editing?.id === deleting) resetForm();
        await refresh();
      },
      onError: (error) => notifyFailure(error, { title: schoolMessages.discountDeleteError, description: error.message }),
      onSettled: () => setDeleting(null),
    }),
  );

  if (benefits.isPending || plan.isPending) return <PageLoader />;
  const canPublish = !!plan.data && PLANS[plan.data.planType].publishes;

  const submit = (input: BenefitInput) => (editing ? update.mutate({ id: editing.id, values: input }) : create.mutate(input));

  return (
    <Page title={schoolUi.benefitsPanelTitle}>
      {!canPublish && (
        <Alert color="yellow" title={schoolUi.planNeeded} data-testid="plan-required">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{schoolMessages.planRequired}</Text>
            <Button component={Link} to="/plano" size="xs">
              {schoolUi.seePlans}
            </Button>
          </Stack>
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Stack>
          <Title order={2} size="h3">
            {editing ? `${schoolUi.editBenefit}: ${editing.className}` : schoolUi.newBenefit}
          </Title>
          <BenefitForm
            key={`${formKey}-${editing?.id ?? "new"}`}
            initial={editing ? toFormValues(editing) : emptyBenefit}
            editing={!!editing}
            termsLocked={!!editing && editing.voucherCount > 0}
            disabled={!editing && !canPublish}
            saving={create.isPending || update.isPending}
            onSubmit={submit}
            onCancel={resetForm}
          />
        </Stack>
      </Card>
      <Title order={2}>{schoolMessages.myBenefits}</Title>
      {benefits.data?.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {benefits.data.map((b) => (
            <BenefitCard
              key={b.id}
              benefit={b}
              waitlist={waitlistOf(b.id)}
              actions={
                <>
                  {b.status === "active" ? (
                    <Button size="xs" color="orange" variant="light" onClick={() => setPausing(b.id)}>
                      {schoolUi.pauseShort}
                    </Button>
                  ) : (
                    <Button size="xs" color="teal" variant="light" onClick={() => reactivate.mutate({ id: b.id })}>
                      {schoolMessages.reactivate}
                    </Button>
                  )}
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => {
                      setEditing(b);
                      window.scrollTo({ top: 0, behavior: "smooth" });
                    }}
                  >
                    {schoolUi.edit}
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="subtle"
                    onClick={() => (b.voucherCount > 0 ? notifyError({ title: schoolMessages.discountDeleteError, description: schoolMessages.deleteBlockedByVouchers }) : setDeleting(b.id))}
                  >
                    {schoolUi.delete}
                  </Button>
                </>
              }
            />
          ))}
        </SimpleGrid>
      ) : (
        <Text c="dimmed">{schoolMessages.noDiscounts}</Text>
      )}
      <ConfirmDialog
        opened={!!pausing}
        title={schoolUi.confirmPauseTitle}
        text={schoolUi.confirmPauseText}
        confirmLabel={schoolUi.confirmPause}
        loading={pause.isPending}
        onClose={() => setPausing(null)}
        onConfirm={() => pausing && pause.mutate({ id: pausing }, { onSettled: () => setPausing(null) })}
      />
      <ConfirmDialog
        opened={!!deleting}
        title={schoolUi.confirmDeleteTitle}
        text={schoolUi.confirmDeleteText}
        confirmLabel={schoolUi.delete}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting })}
      />
    </Page>
  );
}
