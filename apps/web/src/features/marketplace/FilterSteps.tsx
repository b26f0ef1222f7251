import { Button, Group } from "@mantine/core";
import { marketplaceFilterMessages as fm } from "@elo/shared";

/**
 * The fee ("até R$ …") or discount ("pelo menos …%") options under their input (decision 172),
 * each with how many benefits it would leave (the server's facet counts); the chosen one is
 * pressed, and pressing it again removes the filter.
 */
export function FilterSteps(props: {
  label: string;
  steps: Array<{ value: number; count: number }> | undefined;
  chosen: number | undefined;
  format: (v: number) => string;
  onChoose: (v: number | undefined) => void;
  testId: string;
}) {
  if (!props.steps?.length) return null;
  return (
    <Group gap={6} role="group" aria-label={props.label} data-testid={props.testId}>
      {props.steps.map((s) => {
        const pressed = s.value === props.chosen;
        return (
          <Button
            key={s.value}
            size="compact-sm"
            variant={pressed ? "filled" : "default"}
            aria-pressed={pressed}
            onClick={() => props.onChoose(pressed ? undefined : s.value)}
          >
            {fm.withCount(props.format(s.value), s.count)}
          </Button>
        );
      })}
    </Group>
  );
}
