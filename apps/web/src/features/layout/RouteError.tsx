import { accessMessages } from "@elo/shared";
import { Button, Container, Group, Stack, Text, Title } from "@mantine/core";
import { useRouter, type ErrorComponentProps } from "@tanstack/react-router";

/**
 * What a page shows when its loader or render throws. The error's own text stays out of the page
 * (it may be English or technical); the retry re-runs the page, "home" is a full load so a broken
 * client state cannot follow the user there.
 */
export function RouteError({ reset }: Pick<ErrorComponentProps, "reset">) {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md" role="alert">
        <Title order={1} fz={28} ta="center">
          {accessMessages.unexpected}
        </Title>
        <Group justify="center">
          <Button onClick={reset}>{accessMessages.retry}</Button>
          <Button component="a" href="/" variant="default">
            {accessMessages.backHome}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

/** The router's default error component: retrying also re-runs the failed loaders. */
export function DefaultRouteError({ reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <RouteError
      reset={() => {
        reset();
        void router.invalidate();
      }}
    />
  );
}
