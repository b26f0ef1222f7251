import { authPageMessages as m } from "@elo/shared";
import { Select, SimpleGrid } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

export interface LocationValue {
  stateId: string | null;
  cityId: string | null;
  neighborhoodId: string | null;
}
export const emptyLocation: LocationValue = { stateId: null, cityId: null, neighborhoodId: null };

/** UF → city → neighborhood; changing the state resets city and neighborhood, changing the city resets the neighborhood. */
export function LocationSelects({ value, onChange }: { value: LocationValue; onChange: (v: LocationValue) => void }) {
  const states = useQuery(trpc.reference.states.queryOptions());
  const cities = useQuery({ ...trpc.reference.cities.queryOptions({ stateId: Number(value.stateId) }), enabled: !!value.stateId });
  const neighborhoods = useQuery({ ...trpc.reference.neighborhoods.queryOptions({ cityId: Number(value.cityId) }), enabled: !!value.cityId });
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <Select
        label={m.stateLabel}
        placeholder={m.statePlaceholder}
        searchable
        data={(states.data ?? []).map((s) => ({ value: String(s.id), label: `${s.code} - ${s.name}` }))}
        value={value.stateId}
        onChange={(stateId) => onChange({ stateId, cityId: null, neighborhoodId: null })}
        nothingFoundMessage={m.noResults}
      />
      <Select
        label={m.cityLabel}
        placeholder={m.cityPlaceholder}
        searchable
        disabled={!value.stateId}
        data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        value={value.cityId}
        onChange={(cityId) => onChange({ ...value, cityId, neighborhoodId: null })}
        nothingFoundMessage={m.noResults}
      />
      <Select
        label={m.neighborhoodLabel}
        placeholder={m.neighborhoodPlaceholder}
        searchable
        disabled={!value.cityId}
        data={(neighborhoods.data ?? []).map((n) => ({ value: String(n.id), label: n.name }))}
        value={value.neighborhoodId}
        onChange={(neighborhoodId) => onChange({ ...value, neighborhoodId })}
        nothingFoundMessage={m.noResults}
      />
    </SimpleGrid>
  );
}
