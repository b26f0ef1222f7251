import { schoolUi } from "@elo/shared";
import { Select, SimpleGrid } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

export interface Location {
  stateId: number | null;
  cityId: number | null;
  neighborhoodId: number | null;
}

const asId = (v: string | null) => (v ? Number(v) : null);

/** The option lists for `value`; `ready` once every list a chosen level needs has arrived. */
export function useLocationLists(value: Location) {
  const states = useQuery(trpc.reference.states.queryOptions());
  const cities = useQuery({ ...trpc.reference.cities.queryOptions({ stateId: value.stateId ?? 0 }), enabled: !!value.stateId });
  const hoods = useQuery({ ...trpc.reference.neighborhoods.queryOptions({ cityId: value.cityId ?? 0 }), enabled: !!value.cityId });
  const ready = !states.isPending && (!value.stateId || !cities.isPending) && (!value.cityId || !hoods.isPending);
  return { states, cities, hoods, ready };
}

/**
 * State → city → neighborhood selects. Changing a level clears the levels below it (and `onChange`
 * lets the page clear what depends on the place, such as the school).
 */
export function LocationSelects({ value, onChange, required }: { value: Location; onChange: (next: Location) => void; required?: boolean }) {
  const { states, cities, hoods } = useLocationLists(value);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        label={schoolUi.state}
        required={required}
        searchable
        data={(states.data ?? []).map((s) => ({ value: String(s.id), label: `${s.code} - ${s.name}` }))}
        value={value.stateId ? String(value.stateId) : null}
        onChange={(v) => onChange({ stateId: asId(v), cityId: null, neighborhoodId: null })}
      />
      <Select
        label={schoolUi.city}
        required={required}
        searchable
        limit={200}
        disabled={!value.stateId}
        data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        value={value.cityId ? String(value.cityId) : null}
        onChange={(v) => onChange({ ...value, cityId: asId(v), neighborhoodId: null })}
      />
      <Select
        label={schoolUi.neighborhood}
        required={required}
        searchable
        disabled={!value.cityId}
        data={(hoods.data ?? []).map((n) => ({ value: String(n.id), label: n.name }))}
        value={value.neighborhoodId ? String(value.neighborhoodId) : null}
        onChange={(v) => onChange({ ...value, neighborhoodId: asId(v) })}
      />
    </SimpleGrid>
  );
}
