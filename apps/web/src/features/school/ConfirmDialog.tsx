import { schoolUi } from "@elo/shared";
import { Button, Group, Modal, Text } from "@mantine/core";

/** A yes/no dialog for pausing or deleting a benefit. */
export function ConfirmDialog(props: { opened: boolean; title: string; text: string; confirmLabel: string; color?: string; loading?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Text size="sm">{props.text}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={props.onClose}>
          {schoolUi.cancel}
        </Button>
        <Button color={props.color ?? "orange"} loading={props.loading} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
