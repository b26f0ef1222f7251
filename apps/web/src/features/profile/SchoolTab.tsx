import { profileMessages as m, profileUi as ui } from "@elo/shared";
import { Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { ProofUpload } from "./ProofUpload";
import { RequestSchoolDialog } from "./RequestSchoolDialog";
import { SchoolPicker, type SchoolChoice } from "./SchoolPicker";
import type { ProfileSchool } from "./types";
import type { Verification } from "./VerificationState";

/** The cascade's starting point: the saved school's place and id, else the parent's own place. */
export const choiceOf = (school: ProfileSchool | null, fallback: Partial<SchoolChoice> = {}): SchoolChoice =>
  school
    ? { stateId: school.stateId, cityId: school.cityId, neighborhoodId: school.neighborhoodId, schoolId: school.id }
    : { stateId: fallback.stateId ?? null, cityId: fallback.cityId ?? null, neighborhoodId: fallback.neighborhoodId ?? null, schoolId: null };

/** The main-school tab: cascade, 'Salvar escola' (applies the completion rule), proof and 'Cadastrar escola'. */
export function MainSchoolTab({ school, home, proofUrl, verification, hasStudentName }: { school: ProfileSchool | null; home: Partial<SchoolChoice>; proofUrl: string | null; verification: Verification; hasStudentName: () => boolean }) {
  const [choice, setChoice] = useState<SchoolChoice>(() => choiceOf(school, home));
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.profile.saveMainSchool.mutationOptions({
      onSuccess: async () => {
        notifyOk(m.schoolSaved);
        await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      },
      onError: (error) => notifyFailure(error, { title: m.saveErrorTitle, description: m.schoolLinkError }),
    }),
  );
  return (
    <Stack gap="md">
      <SchoolPicker idPrefix="main" value={choice} onChange={setChoice} />
      <Group justify="space-between" wrap="wrap">
        <RequestSchoolDialog location={choice} target="main" onSchool={(id) => setChoice((c) => ({ ...c, schoolId: id }))} />
        <Button onClick={() => (choice.schoolId ? save.mutate({ schoolId: choice.schoolId }) : notifyError(m.schoolNotSelected))} loading={save.isPending}>
          {ui.saveSchool}
        </Button>
      </Group>
      {school && (
        <Text size="sm">
          {ui.currentSchool} <strong>{school.name}</strong>
        </Text>
      )}
      <ProofUpload idPrefix="main" currentUrl={proofUrl} verification={verification} canSend={() => hasStudentName() && !!school} />
    </Stack>
  );
}

/** An other-enrollment tab (n = 1..3): its own cascade, 'Salvar escola' and proof. */
export function OtherSchoolTab({ n, enrollment, home }: { n: number; enrollment: { id: string; school: ProfileSchool | null; proofUrl: string | null; verification: Verification } | null; home: Partial<SchoolChoice> }) {
  const [choice, setChoice] = useState<SchoolChoice>(() => choiceOf(enrollment?.school ?? null, home));
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.profile.enrollments.saveSchool.mutationOptions({
      onSuccess: async () => {
        notifyOk(m.enrollmentSaved);
        await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.profile.enrollments.list.queryKey() });
      },
      onError: (error) => notifyFailure(error, { title: m.enrollmentSaveError }),
    }),
  );
  return (
    <Stack gap="md">
      <SchoolPicker idPrefix={`other-${n}`} value={choice} onChange={setChoice} />
      <Group justify="space-between" wrap="wrap">
        <RequestSchoolDialog location={choice} target="enrollment" onSchool={(id) => setChoice((c) => ({ ...c, schoolId: id }))} />
        <Button onClick={() => (choice.schoolId ? save.mutate({ id: enrollment?.id ?? null, schoolId: choice.schoolId }) : notifyError(m.schoolNotSelected))} loading={save.isPending}>
          {ui.saveSchool}
        </Button>
      </Group>
      {enrollment ? (
        <ProofUpload idPrefix={`other-${n}`} enrollmentId={enrollment.id} currentUrl={enrollment.proofUrl} verification={enrollment.verification} canSend={() => true} />
      ) : (
        <Text size="sm" c="dimmed">
          {ui.saveSchoolBeforeProof}
        </Text>
      )}
    </Stack>
  );
}
