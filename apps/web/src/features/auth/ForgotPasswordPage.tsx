import { accessMessages, authMessages, authPageMessages as m, forgotPasswordInput } from "@elo/shared";
import { Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { AuthCard } from "./AuthCard";

/** /forgot-password: the e-mail form, then a confirmation with the address and a resend button. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useMutation(
    trpc.auth.requestPasswordReset.mutationOptions({
      onSuccess: (_r, input) => {
        notifyOk({ title: authMessages.recoverySentTitle, description: authMessages.recoverySentDescription });
        setSentTo(input.email);
      },
      onError: (error) => notifyFailure(error, { title: authMessages.recoveryErrorTitle, description: authMessages.tryLater }),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = forgotPasswordInput.safeParse({ email });
    if (!parsed.success) {
      notifyError({ title: accessMessages.validationTitle, description: parsed.error.issues[0]?.message });
      return;
    }
    request.mutate(parsed.data);
  };

  if (sentTo) {
    return (
      <AuthCard title={m.forgotSentTitle}>
        <Text>{m.forgotSentText(sentTo)}</Text>
        <Stack gap="xs">
          <Button component={Link} to="/login" fullWidth>
            {m.backToLogin}
          </Button>
          <Button variant="default" fullWidth onClick={() => setSentTo(null)}>
            {m.resend}
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={m.forgotTitle} subtitle={m.forgotSubtitle}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={m.forgotEmailLabel} placeholder={m.emailPlaceholder} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <Button type="submit" fullWidth disabled={!email.trim()} loading={request.isPending}>
            {m.forgotButton}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login">
              {m.backToLogin}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
