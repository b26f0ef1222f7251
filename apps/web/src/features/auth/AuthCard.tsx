import { Container, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The narrow card the account pages share (login, signup, recovery). */
export function AuthCard({ title, subtitle, children, size = 440 }: { title: string; subtitle?: string; children: ReactNode; size?: number }) {
  return (
    <Container size={size} py={{ base: "lg", sm: 48 }} px="sm">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: "md", sm: "xl" }}>
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm" mt={4}>
                {subtitle}
              </Text>
            )}
          </div>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
