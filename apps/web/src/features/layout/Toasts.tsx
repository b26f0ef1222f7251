import { LIMITS } from "@elo/shared";
import { em } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { Notifications } from "@mantine/notifications";
import classes from "./Toasts.module.css";

// Below `sm` the header shows the burger; there the toasts go to the bottom of the screen.
const PHONE_QUERY = `(max-width: ${em(767.98)})`;

/**
 * The toast container, loaded after the first paint (docs/decisions/082-first-load-budget.md).
 * Toasts never cover the header (its links, buttons and avatar menu are what a person uses right
 * after login or signup): on wide screens they sit below it at the right, on phones at the bottom.
 */
export default function Toasts() {
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <Notifications
      limit={1}
      autoClose={LIMITS.toastDurationMs}
      position={phone ? "bottom-center" : "top-right"}
      classNames={classes}
    />
  );
}
