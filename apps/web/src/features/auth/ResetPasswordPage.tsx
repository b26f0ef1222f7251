import { accessMessages, authMessages, authPageMessages as m, LIMITS, resetPasswordForm } from "@elo/shared";
import { Button, Center, Loader, PasswordInput, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { AuthCard } from "./AuthCard";

const isInvalidLink = (error: unknown) => error instanceof TRPCClientError && !!(error.data as { meta?: { invalidLink?: boolean } } | undefined)?.meta?.invalidLink;

/** /reset-password?token=...: checks the link, then asks for the new password twice. */
export function ResetPasswordPage({ token }: { token: string | undefined }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirmPassword?: string }>({});
  const [state, setState] = useState<"form" | "invalid" | "done">("form");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const notified = useRef(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  const check = useQuery({ ...trpc.auth.checkResetToken.queryOptions({ token: token ?? "" }), enabled: !!token, retry: false, staleTime: Infinity });
  const linkInvalid = !token || check.isError || check.data?.valid === false;

  const goInvalid = () => {
    if (timer.current) return;
    setState("invalid");
    if (!notified.current) notifyError({ title: authMessages.invalidLinkTitle, description: authMessages.invalidLinkDescription });
    notified.current = true;
    timer.current = setTimeout(() => void navigate({ to: "/forgot-password", replace: true }), LIMITS.redirectInvalidLinkMs);
  };
  useEffect(() => {
    if (linkInvalid) goInvalid();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkInvalid]);

  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onSuccess: () => {
        setState("done");
        notifyOk({ title: authMessages.resetSuccessTitle });
        timer.current = setTimeout(() => void navigate({ to: "/login", replace: true }), LIMITS.redirectAfterResetMs);
      },
      onError: (error) => (isInvalidLink(error) ? goInvalid() : notifyFailure(error, { title: authMessages.resetErrorTitle })),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = resetPasswordForm.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      const fe: typeof errors = {};
      for (const issue of parsed.error.issues) fe[issue.path[0] as keyof typeof errors] ??= issue.message;
      setErrors(fe);
      notifyError({ title: accessMessages.validationTitle, description: parsed.error.issues[0]?.message });
      return;
    }
    setErrors({});
    reset.mutate({ token: token!, password: parsed.data.password });
  };

  if (state === "invalid") {
    return (
      <AuthCard title={authMessages.invalidLinkTitle}>
        <Text>{authMessages.invalidLinkDescription}</Text>
        <Text c="dimmed" size="sm">
          {m.invalidLinkRedirect}
        </Text>
      </AuthCard>
    );
  }
  if (check.isPending || !check.data?.valid) {
    return (
      <AuthCard title={m.resetTitle}>
        <Center py="lg">
          <Stack align="center" gap="sm">
            <Loader />
            <Text>{authMessages.checkingLink}</Text>
          </Stack>
        </Center>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={m.resetTitle} subtitle={m.resetSubtitle}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput label={m.newPasswordLabel} description={m.passwordHint} autoComplete="new-password" maxLength={LIMITS.passwordMax} value={password} onChange={(e) => (setPassword(e.currentTarget.value), setErrors({}))} error={errors.password} />
          <PasswordInput label={m.confirmPasswordLabel} autoComplete="new-password" maxLength={LIMITS.passwordMax} value={confirmPassword} onChange={(e) => (setConfirmPassword(e.currentTarget.value), setErrors({}))} error={errors.confirmPassword} />
          {state === "done" && (
            <Text c="dimmed" size="sm">
              {m.resetDoneRedirect}
            </Text>
          )}
          <Button type="submit" fullWidth disabled={!password || !confirmPassword || state === "done"} loading={reset.isPending}>
            {m.resetButton}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
