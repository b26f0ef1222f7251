import { Alert, Anchor, Box, Button, Container, Flex, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { LIMITS, marketplaceMessages as m, readMarketplaceSearch, type MarketplaceFilters } from "@elo/shared";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { lazy, Suspense, useEffect } from "react";
import { errorToast, notifyError } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { useResendConfirmation } from "../auth/useResendConfirmation";
import { BenefitCard } from "./BenefitCard";
import { BenefitCardSkeleton } from "./BenefitCardSkeleton";
import { markSoldOut } from "./format";
import classes from "./Home.module.css";
import { activeCount } from "./filter-count";
import type { HelpingSchool, MarketplaceBenefit, MarketplaceList } from "./types";

// The filters' controls (drawer, number inputs, selects) load right after /home's first paint:
// the first-load budget (decisions 082, 155) has no room for them. Their places are held meanwhile.
const filtersModule = () => import("./MarketplaceFilters");
const SearchBox = lazy(() => filtersModule().then((m) => ({ default: m.SearchBox })));
const FiltersPanel = lazy(() => filtersModule().then((m) => ({ default: m.FiltersPanel })));
const ResultsBar = lazy(() => filtersModule().then((m) => ({ default: m.ResultsBar })));
const EmptyFiltered = lazy(() => filtersModule().then((m) => ({ default: m.EmptyFiltered })));

const incompleteToast = { title: m.incompleteTitle, description: m.incompleteDescription };
const proofToast = { title: m.incompleteTitle, description: m.proofMissingDescription };

/** /home: the hero, the parent's marketplace, or the state that fits the user. */
export function HomePage() {
  // Filters, search and sort from the address (issue 31); pages of 24 cards, the next one on
  // "Carregar mais" (decision 086), which counts it in the address (`page`): a reload, back or
  // forward shows as many pages as the address says; the facet counts come with the first page.
  const address = useSearch({ from: "/_auth/home" });
  const pages = address.page ?? 1;
  const search = readMarketplaceSearch(address);
  const input = { ...search, facets: true };
  const list = useInfiniteQuery(
    trpc.marketplace.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor, placeholderData: keepPreviousData }),
  );
  const first = list.data?.pages[0];
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const resend = useResendConfirmation();
  const unconfirmed = me && !me.emailConfirmed ? { onResend: () => resend.mutate(), resending: resend.isPending } : undefined;

  const loaded = list.data?.pages.length ?? 0;
  useEffect(() => {
    if (loaded > 0 && loaded < pages && list.hasNextPage && !list.isFetchingNextPage && !list.isError) void list.fetchNextPage();
  }, [loaded, pages, list.hasNextPage, list.isFetchingNextPage, list.isError, list.fetchNextPage]);

  useEffect(() => {
    if (list.isError) notifyError({ title: m.loadErrorTitle, description: m.loadErrorDescription });
  }, [list.isError]);

  const sendToMyData = async (toast: { title: string; description: string }) => {
    notifyError(toast);
    await navigate({ to: "/meus-dados" });
  };

  const claim = useMutation(
    trpc.claim.create.mutationOptions({
      onSuccess: async ({ transactionId }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.marketplace.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.claim.history.queryKey() });
        await navigate({ to: "/confirmacao-desconto", search: { transaction: transactionId } });
      },
      onError: async (error, variables) => {
        const reason = (error.data as { meta?: { reason?: string } } | undefined)?.meta?.reason;
        const toast = errorToast(error, { title: m.claimErrorTitle, description: m.claimErrorDescription });
        if (reason === "incomplete" || reason === "proof_missing") {
          await sendToMyData({ title: toast.title, description: toast.description ?? "" });
          return;
        }
        notifyError(toast);
        // The address was unconfirmed after all (another tab, an old page): the cards explain it.
        if (reason === "email_unconfirmed") return void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
        // The verification lapsed or is not there yet: the refreshed cards say how to get it.
        if (reason === "verification_required") return void queryClient.invalidateQueries({ queryKey: trpc.marketplace.list.pathKey() });
        if (reason === "unavailable") {
          queryClient.setQueryData(trpc.marketplace.list.infiniteQueryKey(input), (old) => old && { ...old, pages: old.pages.map((page) => markSoldOut(page, variables.discountId)!) });
          return;
        }
        await queryClient.invalidateQueries({ queryKey: trpc.marketplace.list.pathKey() });
      },
    }),
  );

  const onClaim = (benefit: MarketplaceBenefit) => {
    const viewer = first?.viewer;
    // The server re-checks all of this; the client only spares a round trip.
    if (viewer?.kind === "parent" && !viewer.profileCompleted) return void sendToMyData(incompleteToast);
    if (viewer?.kind === "parent" && !viewer.proofSubmitted) return void sendToMyData(proofToast);
    claim.mutate({ discountId: benefit.discountId });
  };

  return (
    <>
      <Box
        component="section"
        py={{ base: 40, sm: 64 }}
        style={{ background: "linear-gradient(135deg, var(--mantine-color-blue-7), var(--mantine-color-teal-6))", color: "white" }}
      >
        <Container size="lg">
          <Title order={1} fz={{ base: 28, sm: 40 }}>
            {m.heroTitle}
          </Title>
          <Text fz={{ base: "lg", sm: "xl" }} fw={500} mt="xs">
            {m.welcome}
          </Text>
        </Container>
      </Box>
      <Container size="lg" py="xl">
        <Body
          first={first}
          items={list.data?.pages.slice(0, pages).flatMap((p) => p.items) ?? []}
          loading={list.isPending}
          claimingId={claim.isPending ? claim.variables?.discountId : undefined}
          onClaim={onClaim}
          unconfirmed={unconfirmed}
          more={
            loaded > pages || list.hasNextPage
              ? { loading: list.isFetchingNextPage, load: () => void navigate({ to: "/home", search: (prev) => ({ ...prev, page: pages + 1 }), resetScroll: false }) }
              : undefined
          }
          filters={{ value: search, onChange: (next) => void navigate({ to: "/home", search: next }) }}
          chosenId={address.beneficio}
        />
      </Container>
    </>
  );
}

interface BodyProps {
  first: MarketplaceList | undefined;
  items: MarketplaceBenefit[];
  loading: boolean;
  claimingId?: string;
  onClaim: (b: MarketplaceBenefit) => void;
  unconfirmed?: { onResend: () => void; resending: boolean };
  more?: { loading: boolean; load: () => void };
  filters: { value: MarketplaceFilters; onChange: (next: MarketplaceFilters) => void };
  /** The benefit chosen on a public page ('Quero este desconto', issue 26): shown first, marked, ready to claim. */
  chosenId?: string;
}

function Body({ first, items, loading, claimingId, onClaim, unconfirmed, more, filters, chosenId }: BodyProps) {
  if (loading) return <Grid>{Array.from({ length: LIMITS.skeletonCards }, (_, i) => <BenefitCardSkeleton key={i} />)}</Grid>;
  if (!first) return <Empty />;
  const { viewer } = first;
  const helpingSchools: HelpingSchool[] = first.helpingSchools;

  if (viewer.kind === "institution") {
    return (
      <Paper withBorder p="xl" radius="md">
        <Stack gap="sm" align="flex-start">
          <Title order={2} fz="xl">
            {m.schoolAreaTitle}
          </Title>
          <Text>{m.schoolAreaText}</Text>
          <Button component={Link} to="/painel-de-beneficios">
            {m.schoolAreaAction}
          </Button>
        </Stack>
      </Paper>
    );
  }
  if (viewer.kind === "no_profile") {
    return (
      <Alert color="blue" title={m.completeProfile}>
        <Anchor component={Link} to="/meus-dados">
          {m.completeProfileAction}
        </Anchor>
      </Alert>
    );
  }
  if (!viewer.hasSchool) {
    return (
      <Alert color="blue">
        <Text>
          {m.introWithoutSchool}{" "}
          <Anchor component={Link} to="/meus-dados">
            {m.completeProfileAction}
          </Anchor>
        </Text>
      </Alert>
    );
  }
  const facets = first.facets;
  const filtered = activeCount(filters.value) > 0 || filters.value.q !== undefined;
  return (
    <Stack gap="lg" className={classes.clearOfHeader}>
      <Text size="lg">{m.introWithSchool}</Text>
      <Suspense fallback={<Box h={60} />}>
        <SearchBox value={filters.value.q} onSearch={(q) => filters.onChange({ ...filters.value, q })} />
      </Suspense>
      <Flex direction={{ base: "column", sm: "row" }} gap="lg" align={{ base: "stretch", sm: "flex-start" }}>
        <Box w={{ base: "100%", sm: 240 }} style={{ flexShrink: 0 }}>
          <Suspense fallback={<Box h={{ base: 36, sm: 560 }} />}>
            <FiltersPanel value={filters.value} facets={facets} onChange={filters.onChange} total={facets?.total} />
          </Suspense>
        </Box>
        <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Box h={60} />}>
            <ResultsBar total={facets?.total} sort={filters.value.sort} onSort={(sort) => filters.onChange({ ...filters.value, sort })} />
          </Suspense>
          {items.length === 0 ? (
            filtered ? (
              <Suspense fallback={null}>
                <EmptyFiltered value={filters.value} facets={facets} onChange={filters.onChange} />
              </Suspense>
            ) : (
              <Empty />
            )
          ) : (
            <Grid>
              {(chosenId ? [...items.filter((b) => b.discountId === chosenId), ...items.filter((b) => b.discountId !== chosenId)] : items).map((b) => (
                <BenefitCard
                  key={b.discountId}
                  chosen={b.discountId === chosenId}
                  benefit={b}
                  helpingSchools={helpingSchools}
                  onClaim={onClaim}
                  claiming={claimingId === b.discountId}
                  busy={claimingId !== undefined}
                  unconfirmed={unconfirmed}
                  enrollmentVerified={viewer.enrollmentVerified}
                />
              ))}
            </Grid>
          )}
          {more && (
            <Button variant="light" size="md" mx="auto" loading={more.loading} onClick={more.load} data-testid="load-more">
              {m.loadMore}
            </Button>
          )}
        </Stack>
      </Flex>
    </Stack>
  );
}

function Grid({ children }: { children: React.ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" verticalSpacing="lg">
      {children}
    </SimpleGrid>
  );
}

function Empty() {
  return (
    <Paper withBorder p="xl" radius="md" ta="center">
      <Title order={2} fz="lg">
        {m.emptyTitle}
      </Title>
      <Text c="dimmed" mt="xs">
        {m.emptyDescription}
      </Text>
    </Paper>
  );
}
