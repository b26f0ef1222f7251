import { commonUi } from "@elo/shared";
import { Center, Loader } from "@mantine/core";

/** The spinner shown while a page or a guard is loading. */
export function PageLoader() {
  return (
    <Center mih="60vh" aria-busy="true">
      <Loader aria-label={commonUi.loading} />
    </Center>
  );
}
