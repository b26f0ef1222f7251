import { Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title, VisuallyHidden } from "@mantine/core";
import { formatBRL, landingMessages, PLAN_TYPES, PLANS, schoolMessages, type PlanType } from "@elo/shared";
import { IconCheck, IconX } from "@tabler/icons-react";
import { Link } from "@tanstack/react-router";

const FEATURES: Array<{ label: string; plans: PlanType[] }> = [
  { label: landingMessages.planFeatures.own, plans: ["bronze", "silver", "gold"] },
  { label: landingMessages.planFeatures.unlimited, plans: ["bronze", "silver", "gold"] },
  { label: landingMessages.planFeatures.others, plans: ["silver", "gold"] },
  { label: landingMessages.planFeatures.banner, plans: ["gold"] },
];

/**
 * Bronze, Silver and Gold side by side. 'Escolher' goes to /confirmacao-plano?plan=… when signed
 * in; a visitor signs up as an institution first, carrying the plan (decision 062).
 */
export function PlanCards({ signedIn }: { signedIn: boolean }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
      {PLAN_TYPES.map((plan) => {
        const p = PLANS[plan];
        return (
          <Card
            key={plan}
            withBorder
            radius="lg"
            padding="xl"
            shadow={p.highlighted ? "md" : "xs"}
            style={p.highlighted ? { borderColor: "var(--mantine-color-yellow-5)", borderWidth: 2 } : undefined}
            aria-labelledby={`plan-${plan}`}
            component="article"
          >
            <Stack gap="md" h="100%">
              <Group justify="space-between" wrap="nowrap">
                <Title order={3} id={`plan-${plan}`}>
                  {p.name}
                </Title>
                {p.highlighted && <Badge color="yellow" c="dark">{schoolMessages.bestOffer}</Badge>}
              </Group>
              {p.monthlyPrice === null ? (
                <Text fz={32} fw={800}>
                  {landingMessages.free}
                </Text>
              ) : (
                <Stack gap={2}>
                  <Text>
                    {/* aria-label on a plain span is ignored by screen readers: the "De" is read from hidden text. */}
                    <Text span td="line-through" c="dimmed" fz="xl" fw={700}>
                      <VisuallyHidden component="span">{landingMessages.formerPrice}</VisuallyHidden>
                      {formatBRL(p.monthlyPrice)}
                    </Text>{" "}
                    <Text span c="dimmed" size="sm">
                      {landingMessages.perMonth}
                    </Text>
                  </Text>
                  <Text fw={800} c="teal.9">
                    {schoolMessages.planFree}
                  </Text>
                </Stack>
              )}
              <List spacing="xs" size="sm" center style={{ flex: 1 }}>
                {FEATURES.map((f) => {
                  const included = f.plans.includes(plan);
                  return (
                    <List.Item
                      key={f.label}
                      c={included ? undefined : "dimmed"}
                      icon={
                        <ThemeIcon component="span" size={20} radius="xl" color={included ? "teal" : "gray"} variant={included ? "filled" : "light"} role="img" aria-label={included ? landingMessages.featureIncluded : landingMessages.featureNotIncluded}>
                          {included ? <IconCheck size={12} /> : <IconX size={12} />}
                        </ThemeIcon>
                      }
                    >
                      {f.label}
                    </List.Item>
                  );
                })}
              </List>
              {signedIn ? (
                <Button renderRoot={(props) => <Link {...props} to="/confirmacao-plano" search={{ plan }} />} variant={p.highlighted ? "filled" : "light"} fullWidth aria-label={`${landingMessages.choose} ${p.name}`}>
                  {landingMessages.choose}
                </Button>
              ) : (
                <Button renderRoot={(props) => <Link {...props} to="/signup" search={{ profile: "institution", plan }} />} variant={p.highlighted ? "filled" : "light"} fullWidth aria-label={`${landingMessages.choose} ${p.name}`}>
                  {landingMessages.choose}
                </Button>
              )}
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
