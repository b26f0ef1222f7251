import { Anchor, Box, Container, Group, Text } from "@mantine/core";
import { LIMITS, TERMS_PDF_PATH } from "@elo/shared";
import { Link } from "@tanstack/react-router";

/** The site footer with quick links, the terms and the copyright. */
export function Footer() {
  return (
    <Box component="footer" bg="gray.0" py="xl" mt="xl" style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
      <Container size="lg">
        <Group justify="space-between" gap="md">
          <Group gap="lg" component="nav" aria-label="Links rápidos">
            <Anchor component={Link} to="/" c="dimmed" size="sm">
              Para pais
            </Anchor>
            <Anchor component={Link} to="/para-escolas" c="dimmed" size="sm">
              Para escolas
            </Anchor>
            <Anchor component={Link} to="/" hash="faq" c="dimmed" size="sm">
              FAQ
            </Anchor>
            <Anchor href={TERMS_PDF_PATH} target="_blank" rel="noopener" c="dimmed" size="sm">
              Termos de Uso e Política de Privacidade
            </Anchor>
          </Group>
          <Text size="sm" c="dimmed">
            © {LIMITS.copyrightYear} Elo Escolar. Todos os direitos reservados.
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
