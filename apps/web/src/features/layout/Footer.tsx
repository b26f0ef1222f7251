import { Anchor, Box, Container, Group, Text } from "@mantine/core";
import { layoutMessages as m, LIMITS, TERMS_PDF_PATH } from "@elo/shared";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { trpc } from "../../lib/trpc";
import { scrollTopIfCurrent } from "./navigation";

/** The site footer with quick links, the terms and the copyright. */
export function Footer() {
  // Every signed-in user (admins and school staff included, whose menus do not list it) reaches
  // the LGPD page from here.
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  return (
    <Box component="footer" bg="gray.0" py="xl" mt="xl" style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
      <Container size="lg">
        <Group justify="space-between" gap="md">
          <Group gap="lg" component="nav" aria-label={m.quickLinks}>
            <Anchor component={Link} to="/" c="dimmed" size="sm" onClick={() => scrollTopIfCurrent({ to: "/" })}>
              {m.forParents}
            </Anchor>
            <Anchor component={Link} to="/para-escolas" c="dimmed" size="sm" onClick={() => scrollTopIfCurrent({ to: "/para-escolas" })}>
              {m.forSchoolsFooter}
            </Anchor>
            <Anchor component={Link} to="/" hash="faq" c="dimmed" size="sm">
              {m.faq}
            </Anchor>
            <Anchor href={TERMS_PDF_PATH} target="_blank" rel="noopener" c="dimmed" size="sm">
              {m.termsAndPrivacy}
            </Anchor>
            {me && (
              <Anchor component={Link} to="/privacidade-lgpd" c="dimmed" size="sm">
                {m.privacy}
              </Anchor>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {m.copyright(LIMITS.copyrightYear)}
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
