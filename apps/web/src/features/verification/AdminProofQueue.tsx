import { verificationMessages as m } from "@elo/shared";
import { Card, SegmentedControl, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { trpc } from "../../lib/trpc";
import { Section } from "./ConfirmEnrollmentsPage";
import { useProofActions } from "./useProofActions";

/** /admin-pais 'Matrículas a confirmar': pending proofs of schools without staff (or of all schools). */
export function AdminProofQueue() {
  const [scope, setScope] = useState<"unstaffed" | "all">("unstaffed");
  const list = useQuery(trpc.admin.verifications.list.queryOptions({ scope }));
  const actions = useProofActions("admin");
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Text c="dimmed" size="sm">
          {m.adminIntro}
        </Text>
        <SegmentedControl
          value={scope}
          onChange={(v) => setScope(v as "unstaffed" | "all")}
          data={[
            { value: "unstaffed", label: m.adminScopeUnstaffed },
            { value: "all", label: m.adminScopeAll },
          ]}
          style={{ alignSelf: "flex-start" }}
        />
        <Section title={m.adminTitle} empty={m.emptyPending} rows={list.data ?? []} actions={actions} showSchool />
      </Stack>
    </Card>
  );
}
