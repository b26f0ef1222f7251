import { Anchor, Button, Card, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { CONTACT_EMAIL, privacyMessages, privacyPageMessages as m, TERMS_PDF_PATH } from "@elo/shared";
import { IconDownload, IconFileText, IconShieldCheck } from "@tabler/icons-react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Page } from "../common/Page";
import { notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { SharedWithCard, WhoSawCard } from "./AccessLogCards";
import { ConsentCard } from "./ConsentCard";
import { DeleteAccount } from "./DeleteAccount";
import { downloadJson, exportFileName } from "./download";

/** /privacidade-lgpd: rights, consents, legal documents, export, deletion and contact. */
export function PrivacyPage() {
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const exportData = useMutation(
    trpc.privacy.export.mutationOptions({
      onSuccess: (data) => {
        downloadJson(data, exportFileName(new Date()));
        notifyOk(privacyMessages.exported);
      },
      onError: (error) => notifyFailure(error, { title: privacyMessages.exportError, description: error.message }),
    }),
  );

  return (
    <Page title={m.title} size="md">
      <Text c="dimmed">{m.intro}</Text>
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="rights-title">
        <Stack gap="sm">
          <Title order={2} fz="h3" id="rights-title">
            {m.rightsTitle}
          </Title>
          <List
            spacing="xs"
            icon={
              <ThemeIcon size={22} radius="xl" color="teal" variant="light" aria-hidden>
                <IconShieldCheck size={14} />
              </ThemeIcon>
            }
          >
            {m.rights.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
        </Stack>
      </Card>
      {me?.profileType === "parent" && (
        <>
          <WhoSawCard />
          <SharedWithCard />
        </>
      )}
      <ConsentCard />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="documents-title">
          <Stack gap="sm" h="100%">
            <Title order={2} fz="h3" id="documents-title">
              {m.documentsTitle}
            </Title>
            <Text c="dimmed" style={{ flex: 1 }}>
              {m.documentsText}
            </Text>
            <Anchor href={TERMS_PDF_PATH} target="_blank" rel="noopener" fw={600}>
              <IconFileText size={18} style={{ verticalAlign: "text-bottom", marginRight: 6 }} aria-hidden />
              {m.documentsLink}
            </Anchor>
          </Stack>
        </Card>
        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="export-title">
          <Stack gap="sm" h="100%">
            <Title order={2} fz="h3" id="export-title">
              {m.exportTitle}
            </Title>
            <Text c="dimmed" style={{ flex: 1 }}>
              {m.exportText}
            </Text>
            <Button leftSection={<IconDownload size={18} />} loading={exportData.isPending} onClick={() => exportData.mutate()}>
              {m.exportButton}
            </Button>
          </Stack>
        </Card>
      </SimpleGrid>
      <DeleteAccount />
      <Card withBorder radius="lg" padding="lg" bg="gray.0" component="section" aria-labelledby="privacy-contact-title">
        <Stack gap={4}>
          <Title order={2} fz="h4" id="privacy-contact-title">
            {m.contactTitle}
          </Title>
          <Text c="dimmed">
            {m.contactText}{" "}
            <Anchor href={`mailto:${CONTACT_EMAIL}`} underline="always">{CONTACT_EMAIL}</Anchor>.
          </Text>
        </Stack>
      </Card>
    </Page>
  );
}
