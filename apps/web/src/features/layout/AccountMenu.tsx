import { layoutMessages as m } from "@elo/shared";
import { Menu, Text } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { accountMenu } from "./account-menu";
import type { NavUser } from "./navigation";
import { useLogout } from "./useLogout";

/** The avatar's 'Minha Conta' menu; loaded after the first paint (it brings the floating-ui positioning code). */
export default function AccountMenu({ me, children }: { me: NavUser; children: ReactNode }) {
  const logout = useLogout();
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>{children}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text fw={700} size="sm" c="dark">
            {m.myAccount}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {me.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {accountMenu(me).map((item) => (
          <Menu.Item key={item.label} component={Link} to={item.to}>
            {item.label}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => logout.mutate()}>
          {m.logout}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
