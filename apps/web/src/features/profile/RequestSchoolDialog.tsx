import { profileMessages as m, profileUi as ui, schoolUi } from "@elo/shared";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import type { SchoolChoice } from "./SchoolPicker";

/**
 * 'Cadastrar escola': asks for a missing school in the tab's UF, city and neighborhood. An
 * existing one is selected instead ('Escola encontrada'); a new one is created and selected
 * (and linked as the main school when `target` is "main").
 */
export function RequestSchoolDialog({ location, target, onSchool }: { location: SchoolChoice; target: "main" | "enrollment"; onSchool: (schoolId: string) => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState("");
  const queryClient = useQueryClient();
  const request = useMutation(
    trpc.profile.requestSchool.mutationOptions({
      onSuccess: async (res) => {
        if (location.neighborhoodId) await queryClient.invalidateQueries({ queryKey: trpc.schools.byNeighborhood.queryKey({ neighborhoodId: location.neighborhoodId }) });
        if (target === "main") await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
        onSchool(res.school.id);
        if (res.found) notifyOk({ title: m.schoolFound, description: res.school.name });
        else notifyOk({ title: m.schoolRequestSent, description: res.school.name });
        setName("");
        close();
      },
      onError: (error) => notifyFailure(error, { title: m.schoolRequestErrorTitle, description: m.schoolRequestErrorDescription }),
    }),
  );

  const submit = () => {
    if (!name.trim()) return notifyError({ title: m.invalidNameTitle, description: m.invalidNameDescription });
    if (!location.stateId || !location.cityId || !location.neighborhoodId) return notifyError({ title: m.incompleteLocationTitle, description: m.incompleteLocationDescription });
    request.mutate({ name, stateId: location.stateId, cityId: location.cityId, neighborhoodId: location.neighborhoodId, target });
  };

  return (
    <>
      <Button variant="subtle" size="compact-sm" onClick={open}>
        {ui.requestSchoolLink}
      </Button>
      <Modal opened={opened} onClose={close} title={ui.requestSchoolTitle} centered>
        <Stack>
          <Text size="sm" c="dimmed">
            {ui.requestSchoolIntro}
          </Text>
          <TextInput label={schoolUi.schoolName} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={150} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {schoolUi.cancel}
            </Button>
            <Button onClick={submit} loading={request.isPending}>
              {ui.sendRequest}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
