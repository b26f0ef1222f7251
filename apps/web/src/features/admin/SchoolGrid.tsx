import { ADMIN_SCHOOLS_PAGE_SIZE, adminMessages, adminUiMessages } from "@elo/shared";
import { Alert, Center, Group, Loader, Pagination, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { trpc } from "../../lib/trpc";
import { useErrorToast } from "../../lib/useErrorToast";
import { SchoolCard } from "./SchoolCard";

/** The school grid: name search, UF → city and niche filters, paged on the server. */
export function SchoolGrid() {
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 300);
  const [uf, setUf] = useState<string | null>(null);
  const [cityId, setCityId] = useState<string | null>(null);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [page, setPage] = useState(1);

  const states = useQuery(trpc.reference.states.queryOptions());
  const stateId = states.data?.find((s) => s.code === uf)?.id;
  const cities = useQuery({ ...trpc.reference.cities.queryOptions({ stateId: stateId ?? 0 }), enabled: !!stateId });
  const categories = useQuery(trpc.reference.categories.queryOptions());
  const schools = useQuery({
    ...trpc.admin.schools.list.queryOptions({
      search: debounced,
      uf,
      cityId: cityId ? Number(cityId) : null,
      categoryId: categoryId ? Number(categoryId) : null,
      page,
      pageSize: ADMIN_SCHOOLS_PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  useErrorToast(schools.error, { title: adminMessages.schoolsLoadError });
  const pages = Math.max(1, Math.ceil((schools.data?.total ?? 0) / ADMIN_SCHOOLS_PAGE_SIZE));
  const resetPage = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <TextInput label={adminUiMessages.searchSchools} value={search} onChange={(e) => resetPage(setSearch)(e.currentTarget.value)} type="search" />
        <Select
          label={adminUiMessages.filterUf}
          placeholder={adminUiMessages.allOptions}
          data={(states.data ?? []).map((s) => ({ value: s.code, label: s.code }))}
          value={uf}
          onChange={(v) => {
            resetPage(setUf)(v);
            setCityId(null);
          }}
          searchable
          clearable
        />
        <Select
          label={adminUiMessages.filterCity}
          placeholder={adminUiMessages.allOptions}
          data={(cities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={cityId}
          onChange={resetPage(setCityId)}
          disabled={!uf}
          searchable
          clearable
          limit={200}
        />
        <Select
          label={adminUiMessages.filterNiche}
          placeholder={adminUiMessages.allOptions}
          data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={categoryId}
          onChange={resetPage(setCategoryId)}
          clearable
        />
      </SimpleGrid>
      {schools.isError ? (
        <Alert color="red">{adminMessages.schoolsLoadError}</Alert>
      ) : !schools.data ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="admin-schools-total">
              {adminUiMessages.schoolsFound(schools.data.total)}
            </Text>
            {schools.isFetching && <Loader size="xs" />}
          </Group>
          {schools.data.items.length === 0 ? (
            <Text c="dimmed">{adminUiMessages.noSchools}</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {schools.data.items.map((s) => (
                <SchoolCard key={s.id} school={s} />
              ))}
            </SimpleGrid>
          )}
          {pages > 1 && (
            <Center>
              <Pagination total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} />
            </Center>
          )}
        </>
      )}
    </Stack>
  );
}
