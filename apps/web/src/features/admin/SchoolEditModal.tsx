import { adminMessages, adminUiMessages, isCep, isPhone, maskCep, maskPhone, MASK_PATTERNS, formatMessages } from "@elo/shared";
import { Button, Group, InputBase, Modal, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { IMaskInput } from "react-imask";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import type { AdminSchool } from "./types";

const idOrNull = (v: string | null) => (v ? Number(v) : null);
const str = (v: number | null | undefined) => (v ? String(v) : null);
const PHONE_MASK = MASK_PATTERNS.phone.map((m) => ({ ...m }));

/** The admin's edit dialog: name required; category → modality and UF → city → neighborhood, children reset. */
export function SchoolEditModal({ school, onClose }: { school: AdminSchool; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(school.name);
  const [categoryId, setCategoryId] = useState(str(school.categoryId));
  const [modalityId, setModalityId] = useState(str(school.modalityId));
  const [stateId, setStateId] = useState(str(school.stateId));
  const [cityId, setCityId] = useState(str(school.cityId));
  const [neighborhoodId, setNeighborhoodId] = useState(str(school.neighborhoodId));
  const [address, setAddress] = useState(school.address ?? "");
  const [phone, setPhone] = useState(school.phone ? maskPhone(school.phone) : "");
  const [whatsapp, setWhatsapp] = useState(school.whatsapp ? maskPhone(school.whatsapp) : "");
  const [cep, setCep] = useState(school.cep ? maskCep(school.cep) : "");

  const categories = useQuery(trpc.reference.categories.queryOptions());
  const modalities = useQuery({ ...trpc.reference.modalities.queryOptions({ categoryId: Number(categoryId) }), enabled: !!categoryId });
  const states = useQuery(trpc.reference.states.queryOptions());
  const cities = useQuery({ ...trpc.reference.cities.queryOptions({ stateId: Number(stateId) }), enabled: !!stateId });
  const neighborhoods = useQuery({ ...trpc.reference.neighborhoods.queryOptions({ cityId: Number(cityId) }), enabled: !!cityId });

  const update = useMutation(
    trpc.admin.schools.update.mutationOptions({
      onSuccess: async () => {
        notifyOk(adminMessages.updated);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.schools.pathKey() });
        onClose();
      },
      onError: (error) => notifyFailure(error, { title: adminMessages.updateError }),
    }),
  );

  const phoneError = phone && !isPhone(phone) ? formatMessages.phoneInvalid : null;
  const whatsappError = whatsapp && !isPhone(whatsapp) ? formatMessages.phoneInvalid : null;
  const cepError = cep && !isCep(cep) ? formatMessages.cepInvalid : null;
  const canSave = name.trim() !== "" && !phoneError && !whatsappError && !cepError;

  function save() {
    if (!canSave) return;
    update.mutate({
      id: school.id,
      name,
      categoryId: idOrNull(categoryId),
      modalityId: idOrNull(modalityId),
      stateId: idOrNull(stateId),
      cityId: idOrNull(cityId),
      neighborhoodId: idOrNull(neighborhoodId),
      address,
      phone,
      whatsapp,
      cep,
    });
  }

  return (
    <Modal opened onClose={onClose} title={adminUiMessages.editTitle} size="lg">
      <Stack>
        <TextInput
          label={adminUiMessages.fieldName}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={name.trim() === "" ? adminMessages.schoolNameRequired : null}
          maxLength={200}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={adminUiMessages.fieldCategory}
            data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={categoryId}
            onChange={(v) => {
              setCategoryId(v);
              setModalityId(null);
            }}
            clearable
          />
          <Select
            label={adminUiMessages.fieldModality}
            data={(modalities.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
            value={modalityId}
            onChange={setModalityId}
            disabled={!categoryId}
            clearable
          />
          <Select
            label={adminUiMessages.fieldState}
            data={(states.data ?? []).map((s) => ({ value: String(s.id), label: `${s.code} - ${s.name}` }))}
            value={stateId}
            onChange={(v) => {
              setStateId(v);
              setCityId(null);
              setNeighborhoodId(null);
            }}
            searchable
            clearable
          />
          <Select
            label={adminUiMessages.fieldCity}
            data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={cityId}
            onChange={(v) => {
              setCityId(v);
              setNeighborhoodId(null);
            }}
            disabled={!stateId}
            searchable
            clearable
            limit={200}
          />
          <Select
            label={adminUiMessages.fieldNeighborhood}
            data={(neighborhoods.data ?? []).map((n) => ({ value: String(n.id), label: n.name }))}
            value={neighborhoodId}
            onChange={setNeighborhoodId}
            disabled={!cityId}
            searchable
            clearable
          />
          <InputBase component={IMaskInput} mask={MASK_PATTERNS.cep} label={adminUiMessages.fieldCep} value={cep} onAccept={(v: string) => setCep(v)} error={cepError} />
        </SimpleGrid>
        <TextInput label={adminUiMessages.fieldAddress} value={address} onChange={(e) => setAddress(e.currentTarget.value)} maxLength={300} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <InputBase component={IMaskInput} mask={PHONE_MASK} label={adminUiMessages.fieldPhone} value={phone} onAccept={(v: string) => setPhone(v)} error={phoneError} />
          <InputBase component={IMaskInput} mask={PHONE_MASK} label={adminUiMessages.fieldWhatsapp} value={whatsapp} onAccept={(v: string) => setWhatsapp(v)} error={whatsappError} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {adminUiMessages.cancel}
          </Button>
          <Button onClick={save} disabled={!canSave} loading={update.isPending}>
            {adminUiMessages.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
