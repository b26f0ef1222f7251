import { layoutMessages as m } from "@elo/shared";
import { Anchor, Button, Divider, Drawer, Stack } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { accountMenu } from "./account-menu";
import { scrollTopIfCurrent, topLinks, type NavUser } from "./navigation";
import { useLogout } from "./useLogout";

/** The phone drawer repeating the header's links; loaded after the first paint. */
export default function MobileMenu({ me, opened, onClose }: { me: NavUser | null; opened: boolean; onClose: () => void }) {
  const logout = useLogout(onClose);
  return (
    <Drawer opened={opened} onClose={onClose} title={m.menuTitle} hiddenFrom="sm" size="80%" padding="md">
      <Stack gap="sm" component="nav" aria-label={m.mobileNavigation}>
        {topLinks(me).map((l) => (
          <Anchor
            key={l.label}
            component={Link}
            to={l.to}
            hash={l.hash}
            onClick={() => {
              onClose();
              scrollTopIfCurrent(l);
            }}
            c="dark"
            fw={500}
          >
            {l.label}
          </Anchor>
        ))}
        <Divider />
        {me ? (
          <>
            {accountMenu(me).map((item) => (
              <Anchor key={item.label} component={Link} to={item.to} onClick={onClose} c="dark">
                {item.label}
              </Anchor>
            ))}
            <Button variant="light" color="red" onClick={() => logout.mutate()}>
              {m.logout}
            </Button>
          </>
        ) : (
          <>
            <Button component={Link} to="/login" variant="default" onClick={onClose}>
              {m.login}
            </Button>
            <Button component={Link} to="/signup" onClick={onClose}>
              {m.createAccount}
            </Button>
          </>
        )}
      </Stack>
    </Drawer>
  );
}
