import { Box, Button, Card, Container, Image, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { PARENT_FAQ, landingMessages } from "@elo/shared";
import { IconDiscount2, IconSchool, IconUserPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { trpc } from "../../lib/trpc";
import { Faq } from "./Faq";
import { Hero } from "./Hero";
import { PromoBanner } from "./PromoBanner";
import { Steps } from "./Steps";

/** The parents' landing page (/). */
export function ParentsLanding() {
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  return (
    <>
      <PromoBanner signedIn={!!me} />
      <Hero
        bg="blue.0"
        title={landingMessages.parentsHeroTitle}
        text={landingMessages.parentsHeroText}
        image="/illustrations/hero-parents.svg"
        imageAlt={landingMessages.parentsHeroImageAlt}
        actions={
          <>
            <Button component={Link} to="/login" size="md" variant="default">
              {landingMessages.login}
            </Button>
            <Button component={Link} to="/signup" size="md">
              {landingMessages.signup}
            </Button>
          </>
        }
      />
      <Steps
        title={landingMessages.howItWorks}
        steps={landingMessages.parentSteps}
        icons={[<IconUserPlus key="1" size={28} />, <IconSchool key="2" size={28} />, <IconDiscount2 key="3" size={28} />]}
      />
      <Box bg="gray.0" py={64} component="section" aria-labelledby="use-cases-title">
        <Container size="lg">
          <Stack gap="xl">
            <Title order={2} id="use-cases-title" ta="center">
              {landingMessages.useCasesTitle}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
              {landingMessages.useCases.map((u) => (
                <Card key={u.title} radius="lg" padding="lg" withBorder>
                  <Card.Section>
                    <Image src={u.image} alt={u.alt} h={160} fit="cover" />
                  </Card.Section>
                  <Title order={3} fz="h4" mt="md">
                    {u.title}
                  </Title>
                  <Text c="dimmed" mt={6}>
                    {u.text}
                  </Text>
                </Card>
              ))}
            </SimpleGrid>
          </Stack>
        </Container>
      </Box>
      <Faq items={PARENT_FAQ} />
      <Box bg="blue.9" py={56} component="section" aria-labelledby="cta-title">
        <Container size="md">
          <Stack align="center" ta="center" gap="md">
            <Title order={2} id="cta-title" c="white">
              {landingMessages.ctaTitle}
            </Title>
            <Text c="blue.0" fz="lg">
              {landingMessages.ctaText}
            </Text>
            <Button component={Link} to="/signup" size="lg" color="yellow" c="dark">
              {landingMessages.signupFree}
            </Button>
          </Stack>
        </Container>
      </Box>
    </>
  );
}
