import { profileMessages, schoolUi } from "@elo/shared";
import { Alert, Button, Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { trpc } from "../../lib/trpc";

/** Shows `children` only to approved staff; otherwise the 'aguardando aprovação', rejected or unlinked state. */
export function StaffGate({ children, title = schoolUi.schoolAreaTitle, noneMessage }: { children: ReactNode; title?: string; noneMessage?: string }) {
  const profile = useQuery(trpc.school.profile.get.queryOptions());
  if (profile.isPending) return <PageLoader />;
  const status = profile.data?.membership?.status;
  if (status === "approved") return <>{children}</>;
  return (
    <Page title={title}>
      <MembershipNotice status={status ?? null} noneMessage={noneMessage} />
    </Page>
  );
}

/** The state of a school link that is not (yet) approved; `onMyData` drops the button to the page already shown. */
export function MembershipNotice({ status, noneMessage = profileMessages.membershipRequired, onMyData = false }: { status: "pending" | "rejected" | "approved" | null; noneMessage?: string; onMyData?: boolean }) {
  if (status === "approved") return null;
  const pending = status === "pending";
  return (
    <Alert color={pending ? "yellow" : status === "rejected" ? "red" : "blue"} title={pending ? profileMessages.membershipPending : undefined} data-testid="membership-notice">
      <Stack gap="sm" align="flex-start">
        {pending ? profileMessages.membershipPendingDescription : status === "rejected" ? profileMessages.membershipRejected : noneMessage}
        {!pending && !onMyData && (
          <Button component={Link} to="/meus-dados" variant="light" size="xs">
            {schoolUi.goToMyData}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
