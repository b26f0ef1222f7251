import { Avatar, Badge, Button, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { LIMITS, landingMessages } from "@elo/shared";
import { IconMapPin } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { trpc } from "../../lib/trpc";

/** The promotional banner of the parents' landing: a network school, shown after 1 s, closable. */
export function PromoBanner({ signedIn }: { signedIn: boolean }) {
  const { data: school } = useQuery(trpc.landing.banner.queryOptions(undefined, { staleTime: Infinity }));
  const [delayPassed, setDelayPassed] = useState(false);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDelayPassed(true), LIMITS.bannerDelayMs);
    return () => clearTimeout(timer);
  }, []);
  if (!school) return null;
  const pct = school.bestBenefit ? school.bestBenefit.discountPercentage.toLocaleString("pt-BR", { maximumFractionDigits: 2 }) : null;

  return (
    <Modal
      opened={delayPassed && !closed}
      onClose={() => setClosed(true)}
      title={landingMessages.bannerTitle}
      centered
      radius="lg"
      closeButtonProps={{ "aria-label": landingMessages.bannerClose }}
    >
      <Stack gap="md" align="center" ta="center">
        <Avatar src={school.logoUrl} alt={`Logo de ${school.name}`} size={96} radius="xl" color="blue">
          {school.name.charAt(0)}
        </Avatar>
        <Stack gap={4} align="center">
          <Title order={3}>{school.name}</Title>
          <Group gap={6} justify="center">
            {school.niche && <Badge variant="light">{school.niche}</Badge>}
            {school.planType === "gold" && <Badge color="yellow">Gold</Badge>}
          </Group>
          {school.city && (
            <Group gap={4} c="dimmed" justify="center">
              <IconMapPin size={16} aria-hidden />
              <Text size="sm">
                {[school.neighborhood, `${school.city}${school.uf ? `/${school.uf}` : ""}`].filter(Boolean).join(", ")}
              </Text>
            </Group>
          )}
        </Stack>
        {school.bestBenefit && pct && (
          <Text fw={800} fz="xl" c="teal.7">
            {landingMessages.bannerUpTo(pct, school.bestBenefit.className)}
          </Text>
        )}
        <Text c="dimmed">{landingMessages.bannerText}</Text>
        <Button component={Link} to={signedIn ? "/home" : "/signup"} fullWidth size="md" onClick={() => setClosed(true)}>
          {landingMessages.bannerCta}
        </Button>
      </Stack>
    </Modal>
  );
}
