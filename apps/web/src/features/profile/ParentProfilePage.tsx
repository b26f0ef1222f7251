import { accessMessages, authPageMessages, commonUi, MASK_PATTERNS, maskCep, maskCpf, maskPhone, parentProfileInput, profileMessages as m, profileUi as ui, schoolUi } from "@elo/shared";
import { Alert, Badge, Button, Card, Checkbox, Group, InputBase, Loader, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { IMaskInput } from "react-imask";
import { z } from "zod";
import { fieldErrors, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { DateField } from "../common/DateField";
import { Page } from "../common/Page";
import { AvatarUpload } from "./AvatarUpload";
import { useLoadedOnce } from "../common/useLoadedOnce";
import { useSchoolPickerLists } from "./SchoolPicker";
import { choiceOf, MainSchoolTab, OtherSchoolTab } from "./SchoolTab";
import type { ParentProfile } from "./types";

interface FormValues {
  phone: string;
  relationshipType: string | null;
  studentName: string;
  studentBirthDate: string;
  studentCpf: string;
  studentAddress: string;
  studentAddressComplement: string;
  studentNeighborhood: string;
  studentZipCode: string;
  publicSchoolPaidActivity: boolean;
}

const formValues = (p: ParentProfile): FormValues => ({
  phone: p.phone ? maskPhone(p.phone) : "",
  relationshipType: p.relationshipType,
  studentName: p.studentName ?? "",
  studentBirthDate: p.studentBirthDate ?? "",
  studentCpf: p.studentCpf ? maskCpf(p.studentCpf) : "",
  studentAddress: p.studentAddress ?? "",
  studentAddressComplement: p.studentAddressComplement ?? "",
  studentNeighborhood: p.studentNeighborhood ?? "",
  studentZipCode: p.studentZipCode ? maskCep(p.studentZipCode) : "",
  publicSchoolPaidActivity: p.publicSchoolPaidActivity,
});

const validationToast = { title: accessMessages.validationTitle, description: accessMessages.fixInvalidFields };

/** /meus-dados for parents: avatar, guardian and student data, and the enrollments card. */
export function ParentProfilePage() {
  const profile = useQuery(trpc.profile.get.queryOptions());

  useEffect(() => {
    if (profile.isError) notifyError({ title: m.loadErrorTitle, description: m.loadErrorDescription });
  }, [profile.isError]);

  if (profile.isPending) return <Loading />;
  if (!profile.data) return <Page title={schoolUi.myDataTitle}>{profile.isError && <Alert color="red">{m.loadErrorDescription}</Alert>}</Page>;
  return <ParentProfileForm profile={profile.data} />;
}

function Loading() {
  return (
    <Page title={schoolUi.myDataTitle}>
      <Group justify="center" py="xl">
        <Loader aria-label={commonUi.loading} />
      </Group>
    </Page>
  );
}

function ParentProfileForm({ profile }: { profile: ParentProfile }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const home = { stateId: profile.stateId, cityId: profile.cityId, neighborhoodId: profile.neighborhoodId };
  const relationships = useQuery(trpc.reference.relationshipTypes.queryOptions());
  // The selects show their saved values from the first paint: their option lists come first.
  const mainLists = useSchoolPickerLists(choiceOf(profile.school, home));
  const loaded = useLoadedOnce(!relationships.isPending && mainLists.ready);
  const form = useForm<FormValues>({ initialValues: formValues(profile) });

  const save = useMutation(
    trpc.profile.update.mutationOptions({
      onSuccess: async () => {
        notifyOk({ title: m.savedTitle, description: m.savedDescription });
        form.resetDirty();
        await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      },
      onError: (error) => {
        const errors = fieldErrors(error);
        if (Object.keys(errors).length) {
          form.setErrors(errors);
          notifyError(validationToast);
        } else notifyFailure(error, { title: m.saveErrorTitle, description: m.saveErrorDescription });
      },
    }),
  );

  const submit = (values: FormValues) => {
    const input = { ...values, studentBirthDate: values.studentBirthDate || null };
    const parsed = parentProfileInput.safeParse(input);
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
      form.setErrors(Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, v?.[0]])));
      return notifyError(validationToast);
    }
    save.mutate(input);
  };

  if (!loaded) return <Loading />;
  return (
    <Page title={schoolUi.myDataTitle} size="md">
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" wrap="wrap" gap="md">
          <AvatarUpload avatarUrl={profile.avatarUrl} fullName={profile.fullName} email={profile.email} />
          <Stack gap={4} align="flex-start">
            <Badge color={profile.profileCompleted ? "teal" : "yellow"} variant="light" data-testid="profile-status">
              {profile.profileCompleted ? ui.profileComplete : ui.profileIncomplete}
            </Badge>
            <Badge color={profile.enrollmentProofSubmitted ? "teal" : "gray"} variant="light">
              {profile.enrollmentProofSubmitted ? m.proofSentTitle : ui.proofPending}
            </Badge>
          </Stack>
        </Group>
      </Card>

      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="lg">
          <Card withBorder radius="md" padding="lg">
            <Title order={2} size="h4" mb="md">
              {ui.guardianSection}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label={authPageMessages.fullNameLabel} value={profile.fullName ?? ""} readOnly disabled />
              <Select
                label={ui.relationship}
                placeholder={ui.selectPlaceholder}
                data={(relationships.data ?? []).map((r) => r.name)}
                {...form.getInputProps("relationshipType")}
                clearable
              />
              <InputBase
                label={schoolUi.whatsapp}
                component={IMaskInput}
                mask={MASK_PATTERNS.phone as unknown as string}
                placeholder="(00) 00000-0000"
                inputMode="tel"
                {...imaskProps(form, "phone")}
              />
            </SimpleGrid>
          </Card>

          <Card withBorder radius="md" padding="lg">
            <Title order={2} size="h4" mb="md">
              {ui.studentSection}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label={ui.studentName} maxLength={100} {...form.getInputProps("studentName")} />
              <DateField label={ui.birthDate} maxDate={new Date()} {...form.getInputProps("studentBirthDate")} />
              <InputBase label={ui.studentCpf} component={IMaskInput} mask={MASK_PATTERNS.cpf} placeholder="000.000.000-00" inputMode="numeric" {...imaskProps(form, "studentCpf")} />
              <TextInput label={schoolUi.address} maxLength={200} {...form.getInputProps("studentAddress")} />
              <TextInput label={ui.addressComplement} maxLength={100} {...form.getInputProps("studentAddressComplement")} />
              <TextInput label={schoolUi.neighborhood} maxLength={100} {...form.getInputProps("studentNeighborhood")} />
              <InputBase label={schoolUi.cep} component={IMaskInput} mask={MASK_PATTERNS.cep} placeholder="00000-000" inputMode="numeric" {...imaskProps(form, "studentZipCode")} />
            </SimpleGrid>
          </Card>

          <Group justify="space-between" wrap="wrap">
            <Button component={Link} to="/privacidade-lgpd" variant="subtle" color="red">
              {ui.deleteAccount}
            </Button>
            <Group>
              <Button variant="default" onClick={() => navigate({ to: "/dashboard" })}>
                {schoolUi.cancel}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {schoolUi.save}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="xs">
          {ui.enrollmentsSection}
        </Title>
        <Checkbox
          mb="md"
          label={ui.publicSchoolPaidActivity}
          {...form.getInputProps("publicSchoolPaidActivity", { type: "checkbox" })}
          onChange={(e) => {
            form.setFieldValue("publicSchoolPaidActivity", e.currentTarget.checked);
          }}
        />
        <Text size="xs" c="dimmed" mb="md">
          {ui.publicSchoolSavedOnSave}
        </Text>
        <Tabs defaultValue="main" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="main">{ui.mainSchoolTab}</Tabs.Tab>
            {[1, 2, 3].map((n) => (
              <Tabs.Tab key={n} value={`other-${n}`} disabled={n > profile.enrollments.length + 1}>
                {ui.otherEnrollmentTab(n)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="main" pt="md">
            <MainSchoolTab school={profile.school} home={home} proofUrl={profile.enrollmentProofUrl} verification={profile.verification} hasStudentName={() => !!form.getValues().studentName.trim()} />
          </Tabs.Panel>
          {[1, 2, 3].map((n) => (
            <Tabs.Panel key={n} value={`other-${n}`} pt="md">
              <OtherSchoolTab key={profile.enrollments[n - 1]?.id ?? "new"} n={n} enrollment={profile.enrollments[n - 1] ?? null} home={home} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>
    </Page>
  );
}

/** Binds a react-imask input to a Mantine form field (onAccept gives the masked value). */
function imaskProps(form: ReturnType<typeof useForm<FormValues>>, field: "phone" | "studentCpf" | "studentZipCode") {
  const { onChange: _ignored, value, ...rest } = form.getInputProps(field);
  return { ...rest, value: value as string, onAccept: (v: string) => form.setFieldValue(field, v) };
}
