import { Box, Button, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { landingMessages, SCHOOL_FAQ } from "@elo/shared";
import { IconBuildingCommunity, IconChartLine, IconRosetteDiscount, IconTrendingUp } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { trpc } from "../../lib/trpc";
import { ContactForm } from "./ContactForm";
import { Faq } from "./Faq";
import { Hero } from "./Hero";
import { PlanCards } from "./PlanCards";
import { Steps } from "./Steps";

/** The schools' landing page (/para-escolas). */
export function SchoolsLanding() {
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  return (
    <>
      <Hero
        bg="yellow.0"
        title={landingMessages.schoolsHeroTitle}
        text={landingMessages.schoolsHeroText}
        image="/illustrations/hero-schools.svg"
        imageAlt={landingMessages.schoolsHeroImageAlt}
        actions={
          <>
            <Button component={Link} to="/login" size="md" variant="default">
              {landingMessages.login}
            </Button>
            <Button renderRoot={(props) => <Link {...props} to="/signup" search={{ profile: "institution" }} />} size="md">
              {landingMessages.schoolSignup}
            </Button>
          </>
        }
      />
      <Steps
        title={landingMessages.howItWorks}
        steps={landingMessages.schoolSteps}
        icons={[<IconBuildingCommunity key="1" size={28} />, <IconRosetteDiscount key="2" size={28} />, <IconChartLine key="3" size={28} />]}
      />
      <Box bg="blue.9" py={56} component="section" aria-labelledby="claim-title">
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" style={{ alignItems: "center" }}>
            <Group gap="md" wrap="nowrap" align="flex-start">
              <ThemeIcon size={64} radius="xl" color="yellow" c="dark" aria-hidden>
                <IconTrendingUp size={36} />
              </ThemeIcon>
              <Title order={2} id="claim-title" c="white" fz={{ base: 24, sm: 30 }}>
                {landingMessages.claimTitle}
              </Title>
            </Group>
            <Text c="blue.0" fz="lg">
              {landingMessages.claimText}
            </Text>
          </SimpleGrid>
        </Container>
      </Box>
      <Container size="lg" py={64} component="section" aria-labelledby="plans-title" id="planos">
        <Stack gap="xl">
          <Stack gap={4} align="center" ta="center">
            <Title order={2} id="plans-title">
              {landingMessages.plansTitle}
            </Title>
            <Text c="dimmed">{landingMessages.plansText}</Text>
          </Stack>
          <PlanCards signedIn={!!me} />
        </Stack>
      </Container>
      <Box bg="gray.0">
        <Faq items={SCHOOL_FAQ} />
      </Box>
      <Container size="md" py={64}>
        <SimpleGrid cols={{ base: 1 }}>
          <ContactForm />
        </SimpleGrid>
      </Container>
    </>
  );
}
