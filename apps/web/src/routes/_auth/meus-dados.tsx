import { createFileRoute } from "@tanstack/react-router";
import { ApiTokensCard } from "../../features/api-tokens/ApiTokensCard";
import { ParentProfilePage } from "../../features/profile/ParentProfilePage";
import { InstitutionProfilePage } from "../../features/school/InstitutionProfilePage";

/** /meus-dados: the parent view or the institution view, by profile type. */
export const Route = createFileRoute("/_auth/meus-dados")({
  component: MyData,
});

function MyData() {
  const { me } = Route.useRouteContext();
  return (
    <>
      {me.profileType === "institution" ? <InstitutionProfilePage /> : <ParentProfilePage />}
      <ApiTokensCard />
    </>
  );
}
