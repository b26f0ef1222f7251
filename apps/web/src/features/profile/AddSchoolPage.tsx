import { commonUi, ENROLLMENT_PERIOD_LABELS, ENROLLMENT_PERIODS, layoutMessages, LIMITS, profileMessages as m, profileUi as ui, schoolUi, type EnrollmentPeriod } from "@elo/shared";
import { Alert, Badge, Box, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { fieldErrors, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { DateField } from "../common/DateField";
import { Page } from "../common/Page";
import { RequestSchoolDialog } from "./RequestSchoolDialog";
import { emptyChoice, SchoolPicker, type SchoolChoice } from "./SchoolPicker";
import type { OtherEnrollment } from "./types";

interface Details {
  enrollmentNumber: string;
  period: EnrollmentPeriod | null;
  classNumber: string;
  startDate: string;
  endDate: string;
  notes: string;
}
const emptyDetails: Details = { enrollmentNumber: "", period: null, classNumber: "", startDate: "", endDate: "", notes: "" };

const periodLabel = (p: EnrollmentPeriod | null) => (p ? ENROLLMENT_PERIOD_LABELS[p] : null);
const formatDay = (iso: string) => iso.split("-").reverse().join("/");

/** /add-escola: the parent's other enrollments (at most 3, newest first) and the form to add or edit one. */
export function AddSchoolPage() {
  const list = useQuery(trpc.profile.enrollments.list.queryOptions());
  const [editing, setEditing] = useState<OtherEnrollment | "new" | null>(null);

  useEffect(() => {
    if (list.isError) notifyError(m.enrollmentLoadError);
  }, [list.isError]);

  const full = (list.data?.length ?? 0) >= LIMITS.otherEnrollmentsMax;
  return (
    <Page title={ui.otherSchoolsTitle} size="md">
      <Text c="dimmed">{ui.otherSchoolsIntro}</Text>
      {list.isPending ? (
        <Group justify="center">
          <Loader aria-label={commonUi.loading} />
        </Group>
      ) : (
        <Stack gap="sm">
          {(list.data ?? []).map((e) => (
            <EnrollmentRow key={e.id} enrollment={e} onEdit={() => setEditing(e)} />
          ))}
          {list.data?.length === 0 && <Text c="dimmed">{ui.noOtherEnrollments}</Text>}
        </Stack>
      )}
      {editing ? (
        <EnrollmentForm key={editing === "new" ? "new" : editing.id} enrollment={editing === "new" ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <Group>
          <Button onClick={() => setEditing("new")} disabled={full}>
            {layoutMessages.addSchool}
          </Button>
          {full && <Text size="sm" c="dimmed">{m.enrollmentLimit}</Text>}
        </Group>
      )}
    </Page>
  );
}

function EnrollmentRow({ enrollment: e, onEdit }: { enrollment: OtherEnrollment; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.profile.enrollments.remove.mutationOptions({
      onSuccess: async () => {
        notifyOk(m.enrollmentRemoved);
        await queryClient.invalidateQueries({ queryKey: trpc.profile.enrollments.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      },
      onError: (error) => notifyFailure(error, { title: m.enrollmentRemoveError }),
    }),
  );
  const facts = [
    e.enrollmentNumber && ui.enrollmentNumberFact(e.enrollmentNumber),
    periodLabel(e.period),
    e.classNumber && ui.classFact(e.classNumber),
    e.startDate && (e.endDate ? ui.dateSpan(formatDay(e.startDate), formatDay(e.endDate)) : formatDay(e.startDate)),
  ].filter(Boolean);
  return (
    <Card withBorder radius="md" padding="md" data-testid="enrollment-row">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600}>{e.school?.name ?? e.institutionName ?? schoolUi.school}</Text>
            <Badge variant="light" color="teal">
              {e.status === "active" ? ui.activeEnrollment : e.status}
            </Badge>
          </Group>
          {e.school && (
            <Text size="sm" c="dimmed">
              {e.school.neighborhood}, {e.school.city}/{e.school.uf}
            </Text>
          )}
          {facts.length > 0 && <Text size="sm">{facts.join(" · ")}</Text>}
        </Stack>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={onEdit}>
            {schoolUi.edit}
          </Button>
          <Button variant="subtle" color="red" size="xs" loading={remove.isPending} onClick={() => remove.mutate({ id: e.id })}>
            {ui.remove}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

function EnrollmentForm({ enrollment, onDone }: { enrollment: OtherEnrollment | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<SchoolChoice>(() =>
    enrollment?.school
      ? { stateId: enrollment.school.stateId, cityId: enrollment.school.cityId, neighborhoodId: enrollment.school.neighborhoodId, schoolId: enrollment.school.id }
      : emptyChoice,
  );
  const [details, setDetails] = useState<Details>(() =>
    enrollment
      ? {
          enrollmentNumber: enrollment.enrollmentNumber ?? "",
          period: enrollment.period,
          classNumber: enrollment.classNumber ?? "",
          startDate: enrollment.startDate ?? "",
          endDate: enrollment.endDate ?? "",
          notes: enrollment.notes ?? "",
        }
      : emptyDetails,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Details>(key: K, value: Details[K]) => setDetails((d) => ({ ...d, [key]: value }));

  const save = useMutation(
    trpc.profile.enrollments.save.mutationOptions({
      onSuccess: async (res) => {
        notifyOk(res.created ? m.enrollmentAdded : m.enrollmentUpdated);
        await queryClient.invalidateQueries({ queryKey: trpc.profile.enrollments.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
        onDone();
      },
      onError: (error) => {
        setErrors(fieldErrors(error));
        notifyFailure(error, { title: enrollment ? m.enrollmentUpdateError : m.enrollmentAddError });
      },
    }),
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!choice.schoolId) return notifyError(m.enrollmentSchoolRequired);
    setErrors({});
    save.mutate({
      id: enrollment?.id ?? null,
      schoolId: choice.schoolId,
      enrollmentNumber: details.enrollmentNumber,
      period: details.period,
      classNumber: details.classNumber,
      startDate: details.startDate || null,
      endDate: details.endDate || null,
      notes: details.notes,
    });
  };

  return (
    <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={2} size="h4">
          {enrollment ? ui.editEnrollment : ui.newEnrollment}
        </Title>
        <SchoolPicker idPrefix="enrollment" value={choice} onChange={setChoice} required />
        <RequestSchoolDialog location={choice} target="enrollment" onSchool={(id) => setChoice((c) => ({ ...c, schoolId: id }))} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={ui.enrollmentNumber} maxLength={50} value={details.enrollmentNumber} onChange={(e) => set("enrollmentNumber", e.currentTarget.value)} />
          <Select
            label={schoolUi.classPeriod}
            placeholder={ui.selectPlaceholder}
            clearable
            data={ENROLLMENT_PERIODS.map((p) => ({ value: p, label: ENROLLMENT_PERIOD_LABELS[p] }))}
            value={details.period}
            onChange={(v) => set("period", v as EnrollmentPeriod | null)}
          />
          <TextInput label={ui.classNumber} maxLength={50} value={details.classNumber} onChange={(e) => set("classNumber", e.currentTarget.value)} />
          <Box visibleFrom="sm" />
          <DateField label={ui.startDate} value={details.startDate} onChange={(v) => set("startDate", v)} error={errors.startDate} />
          <DateField label={ui.endDate} value={details.endDate} onChange={(v) => set("endDate", v)} error={errors.endDate} />
        </SimpleGrid>
        <Textarea label={ui.notes} maxLength={1000} autosize minRows={2} value={details.notes} onChange={(e) => set("notes", e.currentTarget.value)} />
        {Object.keys(errors).length > 0 && <Alert color="red">{Object.values(errors)[0]}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {schoolUi.cancel}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {enrollment ? schoolUi.update : ui.add}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
