import { accessMessages, formatMessages, isCep, isPhone, maskCep, maskPhone, MASK_PATTERNS, profileMessages, schoolMessages, schoolUi } from "@elo/shared";
import { Button, Card, Group, InputBase, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { IMaskInput } from "react-imask";
import { fieldErrors, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { LocationSelects, type Location } from "./LocationSelects";
import { LogoField } from "./LogoField";
import { PublicPageSwitch } from "./PublicPageSwitch";
import { StaffGate } from "./StaffGate";
import { WebhooksSection } from "./webhooks/WebhooksSection";

/** /dados-da-escola for approved staff. */
export function SchoolDataPage() {
  return (
    <StaffGate title={schoolUi.schoolDataTitle}>
      <SchoolDataForm />
    </StaffGate>
  );
}

interface FormState {
  name: string;
  categoryId: number | null;
  modalityId: number | null;
  phone: string;
  whatsapp: string;
  address: string;
  cep: string;
}

/** Client-side checks of spec 2 §5 (the server checks again). */
function validate(form: FormState, place: Location): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.name.trim()) errors.name = schoolMessages.logoNeedsName;
  if (!place.stateId || !place.cityId || !place.neighborhoodId) errors.place = schoolMessages.requiredFieldsDescription;
  if (!form.categoryId || !form.modalityId) errors.modalityId = schoolMessages.requiredFieldsDescription;
  if (form.phone && !isPhone(form.phone)) errors.phone = formatMessages.phoneInvalid;
  if (form.whatsapp && !isPhone(form.whatsapp)) errors.whatsapp = formatMessages.phoneInvalid;
  if (form.cep && !isCep(form.cep)) errors.cep = formatMessages.cepInvalid;
  return errors;
}

function SchoolDataForm() {
  const queryClient = useQueryClient();
  const school = useQuery(trpc.school.data.get.queryOptions());
  const categories = useQuery(trpc.reference.categories.queryOptions());
  const [place, setPlace] = useState<Location>({ stateId: null, cityId: null, neighborhoodId: null });
  const [form, setForm] = useState<FormState>({ name: "", categoryId: null, modalityId: null, phone: "", whatsapp: "", address: "", cep: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const modalities = useQuery({ ...trpc.reference.modalities.queryOptions({ categoryId: form.categoryId ?? 0 }), enabled: !!form.categoryId });

  useEffect(() => {
    if (school.isError) notifyError({ title: profileMessages.loadErrorTitle, description: schoolMessages.dataLoadErrorDescription });
  }, [school.isError]);
  const data = school.data;
  useEffect(() => {
    if (!data) return;
    setPlace({ stateId: data.stateId, cityId: data.cityId, neighborhoodId: data.neighborhoodId });
    setForm({
      name: data.name,
      categoryId: data.categoryId,
      modalityId: data.modalityId,
      phone: data.phone ? maskPhone(data.phone) : "",
      whatsapp: data.whatsapp ? maskPhone(data.whatsapp) : "",
      address: data.address ?? "",
      cep: data.cep ? maskCep(data.cep) : "",
    });
  }, [data]);

  const save = useMutation(
    trpc.school.data.save.mutationOptions({
      onSuccess: async () => {
        notifyOk(schoolMessages.dataUpdated);
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
      },
      onError: (error) => {
        setErrors(fieldErrors(error));
        notifyFailure(error, { title: schoolMessages.saveErrorTitle, description: schoolMessages.dataSaveErrorDescription });
      },
    }),
  );

  if (school.isPending) return <PageLoader />;
  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = validate(form, place);
    setErrors(found);
    if (Object.keys(found).length) {
      notifyError({ title: accessMessages.validationTitle, description: accessMessages.fixInvalidFields });
      return;
    }
    save.mutate({
      name: form.name,
      stateId: place.stateId!,
      cityId: place.cityId!,
      neighborhoodId: place.neighborhoodId!,
      categoryId: form.categoryId!,
      modalityId: form.modalityId!,
      phone: form.phone || null,
      whatsapp: form.whatsapp || null,
      address: form.address || null,
      cep: form.cep || null,
    });
  };

  return (
    <Page title={schoolUi.schoolDataTitle} size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Card withBorder padding="lg">
            <LogoField logoUrl={data?.logoUrl ?? null} schoolName={form.name} />
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <LocationSelects
                required
                value={place}
                onChange={(next) => {
                  setPlace(next);
                  set({ name: "" });
                }}
              />
              <TextInput label={schoolUi.schoolName} required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.name} maxLength={200} />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={schoolUi.niche}
                  required
                  data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                  value={form.categoryId ? String(form.categoryId) : null}
                  onChange={(v) => set({ categoryId: v ? Number(v) : null, modalityId: null })}
                />
                <Select
                  label={schoolUi.modality}
                  required
                  searchable
                  disabled={!form.categoryId}
                  data={(modalities.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
                  value={form.modalityId ? String(form.modalityId) : null}
                  onChange={(v) => set({ modalityId: v ? Number(v) : null })}
                  error={errors.modalityId}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <InputBase label={schoolUi.phone} component={IMaskInput} mask={MASK_PATTERNS.phone as never} value={form.phone} onAccept={(v: string) => set({ phone: v })} error={errors.phone} placeholder="(00) 0000-0000" />
                <InputBase label={schoolUi.whatsapp} component={IMaskInput} mask={MASK_PATTERNS.phone as never} value={form.whatsapp} onAccept={(v: string) => set({ whatsapp: v })} error={errors.whatsapp} placeholder="(00) 00000-0000" />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput label={schoolUi.address} value={form.address} onChange={(e) => set({ address: e.currentTarget.value })} maxLength={255} style={{ gridColumn: "span 2" }} />
                <InputBase label={schoolUi.cep} component={IMaskInput} mask={MASK_PATTERNS.cep} value={form.cep} onAccept={(v: string) => set({ cep: v })} error={errors.cep} placeholder="00000-000" />
              </SimpleGrid>
            </Stack>
          </Card>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {schoolUi.save}
            </Button>
          </Group>
        </Stack>
      </form>
      {data ? (
        <Stack mt="md">
          <PublicPageSwitch publicPage={data.publicPage} publicHidden={data.publicHidden} publicPath={data.publicPath} />
          <WebhooksSection />
        </Stack>
      ) : null}
    </Page>
  );
}
