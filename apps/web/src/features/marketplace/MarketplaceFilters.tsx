import { Button, Checkbox, Drawer, Group, NativeSelect, NumberInput, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import {

  MARKETPLACE_ACCESS,
  MARKETPLACE_SORTS,
  MARKETPLACE_WHERE,
  marketplaceFilterMessages as fm,
  type MarketplaceFilters,
} from "@elo/shared";
import { useEffect, useId, useState } from "react";
import { activeCount } from "./filter-count";
import { FilterSteps } from "./FilterSteps";
import classes from "./Filters.module.css";
import type { MarketplaceFacets } from "./types";

export type FilterKey = Exclude<keyof MarketplaceFilters, "sort">;

interface FiltersProps {
  value: MarketplaceFilters;
  facets: MarketplaceFacets | undefined;
  /** Replaces the filters (the page writes them to the address). */
  onChange: (next: MarketplaceFilters) => void;
}

const withCount = (label: string, n: number | undefined) => (n === undefined ? label : fm.withCount(label, n));
const numberOrUndefined = (v: string | number) => (v === "" || v === undefined || Number.isNaN(Number(v)) ? undefined : Number(v));

/**
 * /home's filters (issue 31): niche and modality, where, fee after discount, discount, slots,
 * access; each option says how many benefits it would leave (the server's facet counts). Selects
 * and the checkbox apply at once; the two amounts apply on Enter or "Aplicar".
 */
export function FilterFields({ value, facets, onChange }: FiltersProps) {
  const set = (patch: Partial<MarketplaceFilters>) => {
    const next: Record<string, unknown> = { ...value, ...patch };
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === false || next[k] === "") delete next[k];
    onChange(next as MarketplaceFilters);
  };
  const [maxFee, setMaxFee] = useState<string | number>(value.maxFee ?? "");
  const [minDiscount, setMinDiscount] = useState<string | number>(value.minDiscount ?? "");
  useEffect(() => setMaxFee(value.maxFee ?? ""), [value.maxFee]);
  useEffect(() => setMinDiscount(value.minDiscount ?? ""), [value.minDiscount]);

  const categories = facets?.categories ?? [];
  const modalities = facets?.modalities ?? [];
  return (
    <Stack gap="md">
      <NativeSelect
        label={fm.categoryLabel}
        value={value.category === undefined ? "" : String(value.category)}
        onChange={(e) => set({ category: numberOrUndefined(e.currentTarget.value), modality: undefined })}
        data={[{ value: "", label: fm.anyCategory }, ...categories.map((c) => ({ value: String(c.id), label: withCount(c.name, c.count) }))]}
        data-testid="filter-category"
      />
      {value.category !== undefined && modalities.length > 0 && (
        <NativeSelect
          label={fm.modalityLabel}
          value={value.modality === undefined ? "" : String(value.modality)}
          onChange={(e) => set({ modality: numberOrUndefined(e.currentTarget.value) })}
          data={[{ value: "", label: fm.anyModality }, ...modalities.map((c) => ({ value: String(c.id), label: withCount(c.name, c.count) }))]}
          data-testid="filter-modality"
        />
      )}
      <NativeSelect
        label={fm.whereLabel}
        value={value.where ?? ""}
        onChange={(e) => set({ where: (e.currentTarget.value || undefined) as MarketplaceFilters["where"] })}
        data={[{ value: "", label: fm.whereAny }, ...MARKETPLACE_WHERE.map((w) => ({ value: w, label: withCount(fm.where[w]!, facets?.where[w]) }))]}
        data-testid="filter-where"
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          set({ maxFee: numberOrUndefined(maxFee), minDiscount: numberOrUndefined(minDiscount) });
        }}
      >
        <Stack gap="sm">
          <NumberInput
            label={fm.maxFeeLabel}
            value={maxFee}
            onChange={setMaxFee}
            min={0}
            decimalScale={2}
            decimalSeparator=","
            thousandSeparator="."
            allowNegative={false}
            inputMode="decimal"
            data-testid="filter-max-fee"
          />
          <FilterSteps
            label={fm.feeStepsLabel}
            steps={facets?.fees.map((f) => ({ value: f.max, count: f.count }))}
            chosen={value.maxFee}
            format={fm.chip.maxFee}
            onChoose={(maxFee) => set({ maxFee })}
            testId="filter-fee-steps"
          />
          <NumberInput
            label={fm.minDiscountLabel}
            value={minDiscount}
            onChange={setMinDiscount}
            min={0}
            max={100}
            decimalScale={2}
            decimalSeparator=","
            allowNegative={false}
            inputMode="decimal"
            data-testid="filter-min-discount"
          />
          <FilterSteps
            label={fm.discountStepsLabel}
            steps={facets?.discounts.map((d) => ({ value: d.min, count: d.count }))}
            chosen={value.minDiscount}
            format={fm.discountStep}
            onChoose={(minDiscount) => set({ minDiscount })}
            testId="filter-discount-steps"
          />
          <Button type="submit" variant="light" data-testid="filter-apply">
            {fm.apply}
          </Button>
        </Stack>
      </form>
      <Checkbox
        label={withCount(fm.withSlotsLabel, facets?.withSlots)}
        checked={value.withSlots === true}
        onChange={(e) => set({ withSlots: e.currentTarget.checked || undefined })}
        data-testid="filter-with-slots"
      />
      <NativeSelect
        label={fm.accessLabel}
        value={value.access ?? ""}
        onChange={(e) => set({ access: (e.currentTarget.value || undefined) as MarketplaceFilters["access"] })}
        data={[{ value: "", label: fm.accessAny }, ...MARKETPLACE_ACCESS.map((a) => ({ value: a, label: withCount(fm.access[a]!, facets?.access[a]) }))]}
        data-testid="filter-access"
      />
      {activeCount(value) > 0 && (
        <Button variant="subtle" onClick={() => onChange(value.sort ? { sort: value.sort } : {})} data-testid="filter-clear">
          {fm.clearFilters}
        </Button>
      )}
    </Stack>
  );
}

/** The search box: applies on Enter or "Buscar". */
export function SearchBox({ value, onSearch }: { value: string | undefined; onSearch: (q: string | undefined) => void }) {
  const [q, setQ] = useState(value ?? "");
  useEffect(() => setQ(value ?? ""), [value]);
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(q.trim() === "" ? undefined : q.trim());
      }}
    >
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={fm.searchLabel}
          placeholder={fm.searchPlaceholder}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          type="search"
          maxLength={100}
          data-testid="marketplace-search"
        />
        <Button type="submit">{fm.searchButton}</Button>
      </Group>
    </form>
  );
}

export function SortSelect({ value, onSort }: { value: MarketplaceFilters["sort"]; onSort: (sort: MarketplaceFilters["sort"]) => void }) {
  return (
    <NativeSelect
      label={fm.sortLabel}
      value={value ?? "default"}
      onChange={(e) => onSort(e.currentTarget.value === "default" ? undefined : (e.currentTarget.value as MarketplaceFilters["sort"]))}
      data={MARKETPLACE_SORTS.map((s) => ({ value: s, label: fm.sort[s]! }))}
      data-testid="marketplace-sort"
    />
  );
}

/** Above the cards: how many benefits the filters leave (announced to screen readers) and the order. */
export function ResultsBar({ total, sort, onSort }: { total: number | undefined; sort: MarketplaceFilters["sort"]; onSort: (sort: MarketplaceFilters["sort"]) => void }) {
  return (
    // The order on the left: the toasts come in at the top right, where a control scrolled up by
    // Tab would sit under them.
    <Group align="flex-end" wrap="wrap" gap="lg">
      <SortSelect value={sort} onSort={onSort} />
      <Text aria-live="polite" data-testid="results-count" fw={500} pb={6}>
        {total === undefined ? "" : fm.resultsCount(total)}
      </Text>
    </Group>
  );
}

/** The side column (desktop) or the drawer behind a button with the results count (phone). */
export function FiltersPanel(props: FiltersProps & { total: number | undefined }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const total = props.total;
  return (
    <>
      <Paper withBorder p="md" radius="md" visibleFrom="sm" component="aside" aria-labelledby={titleId} data-testid="filters-column">
        <Title order={2} fz="lg" mb="sm" id={titleId}>
          {fm.filtersTitle}
        </Title>
        <FilterFields {...props} />
      </Paper>
      <Button hiddenFrom="sm" variant="default" onClick={() => setOpen(true)} data-testid="open-filters" fullWidth>
        {total === undefined ? fm.filtersTitle : fm.openFilters(total)}
      </Button>
      <Drawer opened={open} onClose={() => setOpen(false)} title={fm.filtersTitle} position="bottom" size="90%" classNames={{ body: classes.drawerBody }} data-testid="filters-drawer">
        <Stack gap="md">
          <FilterFields {...props} />
          <Button onClick={() => setOpen(false)} data-testid="show-results">
            {total === undefined ? fm.closeFilters : fm.showResults(total)}
          </Button>
        </Stack>
      </Drawer>
    </>
  );
}

/** The label of an active filter, as the empty state names it ("até R$ 200,00", "Idiomas"). */
export function chipLabel(key: FilterKey, f: MarketplaceFilters, facets: MarketplaceFacets | undefined): string {
  switch (key) {
    case "q":
      return fm.chip.q(f.q ?? "");
    case "category":
      return facets?.categories.find((c) => c.id === f.category)?.name ?? fm.categoryLabel;
    case "modality":
      return facets?.modalities.find((c) => c.id === f.modality)?.name ?? fm.modalityLabel;
    case "where":
      return fm.where[f.where ?? ""] ?? fm.whereLabel;
    case "maxFee":
      return fm.chip.maxFee(f.maxFee ?? 0);
    case "minDiscount":
      return fm.chip.minDiscount(f.minDiscount ?? 0);
    case "withSlots":
      return fm.chip.withSlots;
    case "access":
      return fm.access[f.access ?? ""] ?? fm.accessLabel;
  }
}

/** The empty result of a filtered list: which filter to remove to see most, and how many. */
export function EmptyFiltered({ value, facets, onChange }: FiltersProps) {
  const without = Object.entries(facets?.without ?? {}) as Array<[FilterKey, number]>;
  const best = without.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])[0];
  const remove = (key: FilterKey) => {
    const next: MarketplaceFilters = { ...value };
    delete next[key];
    if (key === "category") delete next.modality;
    onChange(next);
  };
  return (
    <Paper withBorder p="xl" radius="md" ta="center" data-testid="empty-filtered">
      <Title order={2} fz="lg">
        {fm.emptyFiltered}
      </Title>
      <Text mt="xs">{best ? fm.loosen(chipLabel(best[0], value, facets), best[1]) : fm.loosenAll}</Text>
      <Group justify="center" mt="md">
        {best && (
          <Button variant="light" onClick={() => remove(best[0])}>
            {fm.removeFilter(chipLabel(best[0], value, facets))}
          </Button>
        )}
        <Button variant="subtle" onClick={() => onChange(value.sort ? { sort: value.sort } : {})}>
          {fm.clearFilters}
        </Button>
      </Group>
    </Paper>
  );
}


