import { adminMessages, operationsMessages } from "@elo/shared";
import { Button, Group, Stack, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { ChartsLoading } from "../charts/ChartsLoading";
import { Page } from "../common/Page";
import { CsvImportCard } from "./CsvImportCard";
import { MembershipQueue } from "./MembershipQueue";
import { ParentRequests } from "./ParentRequests";
import { SchoolGrid } from "./SchoolGrid";

// The charts library loads with the overview, not with the page (docs/decisions/130).
const NetworkOverview = lazy(() => import("./NetworkOverview"));

/** /admin-escolas 'Gerenciar Escolas'. */
export function AdminSchoolsPage() {
  return (
    // The header's width; 'Gestão de Pais' sits beside the title, clear of the account menu that opens at the right.
    <Page>
      <Group gap="md">
        <Title order={1} fz={{ base: 26, sm: 34 }}>
          {adminMessages.schoolsTitle}
        </Title>
        <Button component={Link} to="/admin-pais" variant="light">
          {adminMessages.parentsButton}
        </Button>
        <Button component={Link} to="/admin-operacao" variant="light">
          {operationsMessages.button}
        </Button>
      </Group>
      <Stack gap="lg">
        <MembershipQueue />
        <ParentRequests />
        <Suspense fallback={<ChartsLoading />}>
          <NetworkOverview />
        </Suspense>
        <CsvImportCard />
        <SchoolGrid />
      </Stack>
    </Page>
  );
}
