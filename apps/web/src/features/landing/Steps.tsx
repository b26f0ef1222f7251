import { Badge, Card, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { ReactNode } from "react";

export interface Step {
  title: string;
  text: string;
}

/** A numbered "how it works" row of cards. */
export function Steps({ title, steps, icons }: { title: string; steps: readonly Step[]; icons: ReactNode[] }) {
  return (
    <Container size="lg" py={64} component="section" aria-labelledby="steps-title">
      <Stack gap="xl">
        <Title order={2} id="steps-title" ta="center">
          {title}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {steps.map((step, i) => (
            <Card key={step.title} component="li" withBorder radius="lg" padding="lg" shadow="xs">
              <Stack gap="sm">
                <ThemeIcon size={52} radius="xl" variant="light" aria-hidden>
                  {icons[i]}
                </ThemeIcon>
                <Badge variant="outline" w="fit-content">
                  Passo {i + 1}
                </Badge>
                <Title order={3} fz="h4">
                  {step.title}
                </Title>
                <Text c="dimmed">{step.text}</Text>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
