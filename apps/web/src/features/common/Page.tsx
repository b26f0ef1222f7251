import { Container, Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A page's container and heading. */
export function Page({ title, children, size = "lg" }: { title?: string; children?: ReactNode; size?: string }) {
  return (
    <Container size={size} py="xl">
      <Stack gap="lg">
        {title && <Title order={1}>{title}</Title>}
        {children}
      </Stack>
    </Container>
  );
}
