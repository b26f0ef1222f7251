import { commonUi } from "@elo/shared";
import { Center, Loader } from "@mantine/core";

/** The place the charts will take, while their chunk or their figures load. */
export function ChartsLoading() {
  return (
    <Center mih={320} aria-busy="true">
      <Loader aria-label={commonUi.loading} />
    </Center>
  );
}
