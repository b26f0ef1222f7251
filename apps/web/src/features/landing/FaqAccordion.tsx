import { Accordion, Text } from "@mantine/core";
import type { FaqItem } from "@elo/shared";

/** The FAQ's questions: one open at a time, and the open one closes on a second click. */
export default function FaqAccordion({ items }: { items: FaqItem[] }) {
  return (
    <Accordion variant="separated" radius="md" chevronPosition="right">
      {items.map((item, i) => (
        <Accordion.Item key={item.question} value={`faq-${i}`}>
          <Accordion.Control>
            <Text span fw={600}>
              {item.question}
            </Text>
          </Accordion.Control>
          <Accordion.Panel>
            <Text c="dimmed">{item.answer}</Text>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
