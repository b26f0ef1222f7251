import { Accordion, Container, Stack, Text, Title } from "@mantine/core";
import type { FaqItem } from "@elo/shared";
import { landingMessages } from "@elo/shared";

/** The FAQ section at #faq: one item open at a time, and the open one closes on a second click. */
export function Faq({ items }: { items: FaqItem[] }) {
  return (
    <Container size="md" py={64} id="faq" component="section" aria-labelledby="faq-title" style={{ scrollMarginTop: 80 }}>
      <Stack gap="lg">
        <Title order={2} id="faq-title" ta="center">
          {landingMessages.faqTitle}
        </Title>
        <Accordion variant="separated" radius="md" chevronPosition="right">
          {items.map((item, i) => (
            <Accordion.Item key={item.question} value={`faq-${i}`}>
              <Accordion.Control>
                <Text fw={600}>{item.question}</Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Text c="dimmed">{item.answer}</Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Stack>
    </Container>
  );
}
