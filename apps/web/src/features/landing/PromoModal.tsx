import { Avatar, Badge, Button, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { landingMessages, PLANS } from "@elo/shared";
import { IconMapPin } from "@tabler/icons-react";
import type { inferOutput } from "@trpc/tanstack-react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import type { trpc } from "../../lib/trpc";

type BannerSchool = NonNullable<inferOutput<typeof trpc.landing.banner>>;

/** The promotional banner's dialog (loaded lazily by PromoBanner). */
export default function PromoModal({ school, signedIn, opened, onClose }: { school: BannerSchool; signedIn: boolean; opened: boolean; onClose: () => void }) {
  // Mantine notes where focus was when `opened` changes, not on mount: mounted open, it would have
  // nowhere to give focus back to when it closes.
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(opened), [opened]);
  const pct = school.bestBenefit ? school.bestBenefit.discountPercentage.toLocaleString("pt-BR", { maximumFractionDigits: 2 }) : null;

  return (
    <Modal
      opened={shown}
      onClose={onClose}
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
            {school.planType === "gold" && <Badge color="yellow">{PLANS.gold.name}</Badge>}
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
          <Text fw={800} fz="xl" c="teal.9">
            {landingMessages.bannerUpTo(pct, school.bestBenefit.className)}
          </Text>
        )}
        <Text c="dimmed">{landingMessages.bannerText}</Text>
        <Button component={Link} to={signedIn ? "/home" : "/signup"} fullWidth size="md" onClick={onClose}>
          {landingMessages.bannerCta}
        </Button>
      </Stack>
    </Modal>
  );
}
