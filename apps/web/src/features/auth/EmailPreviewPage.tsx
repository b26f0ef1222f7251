import { Alert, Badge, Card, Code, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { trpc } from "../../lib/trpc";
import { emailPreviewMessages } from "@elo/shared";

type Preview = { kind: string; label: string; subject: string; html: string; text: string };

/** One e-mail: subject, then the HTML in a sandboxed frame (no scripts, no same-origin) or the text version. */
function EmailPreviewCard({ preview }: { preview: Preview }) {
  const [view, setView] = useState<"html" | "text">("html");
  return (
    <Card withBorder padding="md" radius="md" data-testid={`email-preview-${preview.kind}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={2} size="h4">
              {preview.label}
            </Title>
            <Badge variant="light">{preview.kind}</Badge>
          </Group>
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as "html" | "text")}
            data={[
              { value: "html", label: emailPreviewMessages.html },
              { value: "text", label: emailPreviewMessages.text },
            ]}
          />
        </Group>
        <Text size="sm">
          <Text span fw={600}>
            {emailPreviewMessages.subject}:
          </Text>{" "}
          {preview.subject}
        </Text>
        {view === "html" ? (
          <iframe
            title={`${emailPreviewMessages.html}: ${preview.label}`}
            sandbox=""
            srcDoc={preview.html}
            style={{ width: "100%", height: 660, border: "1px solid var(--mantine-color-gray-3)", borderRadius: 8, background: "#fff" }}
          />
        ) : (
          <Code block style={{ whiteSpace: "pre-wrap" }}>
            {preview.text}
          </Code>
        )}
      </Stack>
    </Card>
  );
}

/** /email-preview: every e-mail template rendered from the server's registry with sample data. */
export function EmailPreviewPage() {
  const previews = useQuery(trpc.auth.emailPreviews.queryOptions());
  return (
    <Page title={emailPreviewMessages.title}>
      <Text c="dimmed">{emailPreviewMessages.intro}</Text>
      {previews.isPending ? (
        <PageLoader />
      ) : previews.isError ? (
        <Alert color="red">{emailPreviewMessages.loadError}</Alert>
      ) : (
        previews.data.map((p) => <EmailPreviewCard key={p.kind} preview={p} />)
      )}
    </Page>
  );
}
