import { adminMessages } from "@elo/shared";
import { Button, Group, Stack, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { Page } from "../common/Page";
import { CsvImportCard } from "./CsvImportCard";
import { MembershipQueue } from "./MembershipQueue";
import { ParentRequests } from "./ParentRequests";
import { SchoolGrid } from "./SchoolGrid";

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
      </Group>
      <Stack gap="lg">
        <MembershipQueue />
        <ParentRequests />
        <CsvImportCard />
        <SchoolGrid />
      </Stack>
    </Page>
  );
}
