import { Container, Paper, Stack, Text, Title } from "@mantine/core";
import type { FaqItem } from "@elo/shared";
import { landingMessages } from "@elo/shared";
import { lazy, memo, Suspense } from "react";

// Below the fold: the accordion (Accordion, Collapse) loads after the first paint, outside the
// first-load budget (docs/decisions/082-first-load-budget.md). The section and its title are there
// at once, so /#faq scrolls to it.
const FaqAccordion = lazy(() => import("./FaqAccordion"));

/**
 * The FAQ section at #faq. Memoised: on a rendered landing page (decision 163) the page re-renders
 * when "who am I" answers, and an update reaching the accordion before its code has loaded would
 * swap the rendered questions for the placeholder.
 */
export const Faq = memo(function Faq({ items }: { items: FaqItem[] }) {
  return (
    <Container size="md" py={64} id="faq" component="section" aria-labelledby="faq-title" style={{ scrollMarginTop: 80 }}>
      <Stack gap="lg">
        <Title order={2} id="faq-title" ta="center">
          {landingMessages.faqTitle}
        </Title>
        <Suspense fallback={<FaqQuestions items={items} />}>
          <FaqAccordion items={items} />
        </Suspense>
      </Stack>
    </Container>
  );
});

/** The questions as closed items while the accordion loads: the same place on the page, so what
 * follows (the contact form) does not jump when it arrives. */
function FaqQuestions({ items }: { items: FaqItem[] }) {
  return (
    <Stack gap="md" data-faq-placeholder>
      {items.map((item) => (
        <Paper key={item.question} withBorder radius="md" pl="md" pr={32} py="sm" bg="var(--mantine-color-body)">
          <Text fw={600}>{item.question}</Text>
        </Paper>
      ))}
    </Stack>
  );
}
