import { authPageMessages as auth, profileMessages as m, profileUi as ui, schoolUi } from "@elo/shared";
import { Select, SimpleGrid } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/** A place and a school chosen through the cascade; ids are null until picked. */
export interface SchoolChoice {
  stateId: number | null;
  cityId: number | null;
  neighborhoodId: number | null;
  schoolId: string | null;
}
export const emptyChoice: SchoolChoice = { stateId: null, cityId: null, neighborhoodId: null, schoolId: null };

const toNumber = (v: string | null) => (v ? Number(v) : null);

/** The option lists for `value`; `ready` once every list a chosen level needs has arrived. */
export function useSchoolPickerLists(value: SchoolChoice) {
  const states = useQuery(trpc.reference.states.queryOptions());
  const cities = useQuery(trpc.reference.cities.queryOptions({ stateId: value.stateId ?? 0 }, { enabled: !!value.stateId }));
  const neighborhoods = useQuery(trpc.reference.neighborhoods.queryOptions({ cityId: value.cityId ?? 0 }, { enabled: !!value.cityId }));
  const schools = useQuery(trpc.schools.byNeighborhood.queryOptions({ neighborhoodId: value.neighborhoodId ?? 0 }, { enabled: !!value.neighborhoodId }));
  const ready = !states.isPending && (!value.stateId || !cities.isPending) && (!value.cityId || !neighborhoods.isPending) && (!value.neighborhoodId || !schools.isPending);
  return { states, cities, neighborhoods, schools, ready };
}

/**
 * UF -> city -> neighborhood -> searchable school, with the resets of spec 1 §4: changing the
 * state clears city, neighborhood and school; the city clears neighborhood and school; the
 * neighborhood clears the school.
 */
export function SchoolPicker({ value, onChange, required = false, idPrefix }: { value: SchoolChoice; onChange: (next: SchoolChoice) => void; required?: boolean; idPrefix: string }) {
  const { states, cities, neighborhoods, schools } = useSchoolPickerLists(value);

  const located = !!value.neighborhoodId;
  const schoolOptions = (schools.data ?? []).map((s) => ({ value: s.id, label: s.name }));

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Select
        id={`${idPrefix}-uf`}
        label={ui.stateShort}
        placeholder={auth.statePlaceholder}
        required={required}
        searchable
        data={(states.data ?? []).map((s) => ({ value: String(s.id), label: `${s.code} - ${s.name}` }))}
        value={value.stateId ? String(value.stateId) : null}
        onChange={(v) => onChange({ ...emptyChoice, stateId: toNumber(v) })}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        id={`${idPrefix}-city`}
        label={auth.cityLabel}
        placeholder={value.stateId ? auth.cityPlaceholder : ui.pickStateFirst}
        required={required}
        searchable
        limit={100}
        disabled={!value.stateId}
        data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        value={value.cityId ? String(value.cityId) : null}
        onChange={(v) => onChange({ ...emptyChoice, stateId: value.stateId, cityId: toNumber(v) })}
      />
      <Select
        id={`${idPrefix}-neighborhood`}
        label={auth.neighborhoodLabel}
        placeholder={value.cityId ? auth.neighborhoodPlaceholder : ui.pickCityFirst}
        required={required}
        searchable
        limit={100}
        disabled={!value.cityId}
        nothingFoundMessage={ui.noNeighborhoodFound}
        data={(neighborhoods.data ?? []).map((n) => ({ value: String(n.id), label: n.name }))}
        value={value.neighborhoodId ? String(value.neighborhoodId) : null}
        onChange={(v) => onChange({ ...value, neighborhoodId: toNumber(v), schoolId: null })}
      />
      <Select
        id={`${idPrefix}-school`}
        label={schoolUi.school}
        placeholder={!located ? m.pickLocationFirst : schools.isSuccess && schoolOptions.length === 0 ? m.noSchoolsInNeighborhood : ui.searchSchool}
        required={required}
        searchable
        disabled={!located}
        nothingFoundMessage={m.noSchoolsInNeighborhood}
        data={schoolOptions}
        value={value.schoolId}
        onChange={(v) => onChange({ ...value, schoolId: v })}
      />
    </SimpleGrid>
  );
}
