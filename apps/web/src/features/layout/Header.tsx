import { Anchor, Avatar, Box, Burger, Button, Container, Group, Image, Text, UnstyledButton } from "@mantine/core";
import { layoutMessages as m } from "@elo/shared";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { trpc } from "../../lib/trpc";
import { avatarLetter, scrollTopIfCurrent, topLinks } from "./navigation";

// The menu and the drawer (floating-ui, scroll lock, focus trap) load right after the first paint,
// outside the first-load budget (docs/decisions/082-first-load-budget.md).
const AccountMenu = lazy(() => import("./AccountMenu"));
const MobileMenu = lazy(() => import("./MobileMenu"));

export function Header() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const links = topLinks(me ?? null);
  const letter = avatarLetter(me?.fullName, me?.email);
  const avatar = (loading: boolean) =>
    me ? (
      // Disabled until the menu's code arrives, so a click never falls on a button that does nothing.
      <UnstyledButton aria-label={m.myAccount} disabled={loading}>
        <Avatar src={me.avatarUrl} alt={me.fullName ?? me.email} color="blue" radius="xl">
          {letter}
        </Avatar>
      </UnstyledButton>
    ) : null;

  return (
    <Box component="header" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)", background: "white", position: "sticky", top: 0, zIndex: 100 }}>
      {/* 64 px: Toasts.module.css places the toasts below it. */}
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" aria-label={m.brandHomeLink}>
            <Group gap={8} wrap="nowrap">
              <Image src="/logo.svg" alt="" w={32} h={32} />
              <Text fw={800} fz="lg" c="blue.8">
                {m.brand}
              </Text>
            </Group>
          </Anchor>

          <Group gap="lg" visibleFrom="sm" component="nav" aria-label={m.mainNavigation}>
            {links.map((l) => (
              <Anchor key={l.label} component={Link} to={l.to} hash={l.hash} c="dark" fw={500} resetScroll={l.to === "/para-escolas" && !l.hash} onClick={() => scrollTopIfCurrent(l)}>
                {l.label}
              </Anchor>
            ))}
          </Group>

          <Group gap="sm" wrap="nowrap">
            {me ? (
              <Suspense fallback={avatar(true)}>
                <AccountMenu me={me}>{avatar(false)}</AccountMenu>
              </Suspense>
            ) : (
              <Group gap="xs" visibleFrom="sm">
                <Button component={Link} to="/login" variant="default">
                  {m.login}
                </Button>
                <Button component={Link} to="/signup">
                  {m.createAccount}
                </Button>
              </Group>
            )}
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" aria-label={m.openMenu} />
          </Group>
        </Group>
      </Container>

      <Suspense fallback={null}>
        <MobileMenu me={me ?? null} opened={opened} onClose={close} />
      </Suspense>
    </Box>
  );
}
