import { schoolUi } from "@elo/shared";
import { Button, Group, Modal, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A yes/no dialog (pausing or deleting a benefit, cancelling or giving up a voucher); `children` go under the text. */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel?: string;
  color?: string;
  loading?: boolean;
  confirmDisabled?: boolean;
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Text size="sm">{props.text}</Text>
      {props.children}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={props.onClose}>
          {props.cancelLabel ?? schoolUi.cancel}
        </Button>
        <Button color={props.color ?? "orange"} loading={props.loading} disabled={props.confirmDisabled} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
