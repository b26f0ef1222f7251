import { accessMessages } from "@elo/shared";
import { Button, Container, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";

/** The 404 page. */
export function NotFound() {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md">
        <Title order={1} fz={64} c="blue">
          404
        </Title>
        <Text fz="xl">{accessMessages.notFound}</Text>
        <Button component={Link} to="/">
          {accessMessages.backHome}
        </Button>
      </Stack>
    </Container>
  );
}
