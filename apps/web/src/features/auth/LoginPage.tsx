import { accessMessages, authMessages, authPageMessages as m, checkLogin, type PlanType } from "@elo/shared";
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { homePathFor } from "../../lib/guards";
import { afterAuth } from "../../lib/plan-choice";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { AuthCard } from "./AuthCard";
import { refreshSession } from "./session";

/** /login: e-mail and password; lands by role and profile (or on the plan chosen before), replacing history. */
export function LoginPage({ plan }: { plan?: PlanType }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: async (result) => {
        notifyOk({ title: authMessages.loginSuccessTitle, description: authMessages.loginSuccessDescription });
        await refreshSession(queryClient);
        await navigate({ ...afterAuth(result, plan, homePathFor(result)), replace: true });
      },
      onError: (error) => notifyFailure(error, { title: authMessages.loginErrorTitle }),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = checkLogin({ email, password });
    if (!parsed.ok) {
      notifyError({ title: accessMessages.validationTitle, description: parsed.message });
      return;
    }
    login.mutate(parsed.data);
  };

  return (
    <AuthCard title={m.loginTitle} subtitle={m.loginSubtitle}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={m.emailLabel} placeholder={m.emailPlaceholder} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={m.passwordLabel} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">
              {m.forgotLink}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth disabled={!email.trim() || !password} loading={login.isPending}>
            {m.loginButton}
          </Button>
          <Text size="sm" ta="center">
            {m.noAccount}{" "}
            <Anchor renderRoot={(props) => <Link {...props} to="/signup" search={plan ? { profile: "institution", plan } : {}} />}>
              {m.createAccountLink}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
