import { emailConfirmationMessages as m, publicPagesMessages } from "@elo/shared";
import { Button, Center, Loader, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { homePathFor } from "../../lib/guards";
import { queryClient, trpc } from "../../lib/trpc";
import { AuthCard } from "./AuthCard";
import { useResendConfirmation } from "./useResendConfirmation";

/** /confirmar-email?token=...: spends the link once, then says what happened. */
export function ConfirmEmailPage({ token, benefitId }: { token: string | undefined; benefitId?: string }) {
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const resend = useResendConfirmation();
  const confirm = useMutation(
    trpc.auth.confirmEmail.mutationOptions({
      // The link was spent for this address: the cards of /home may offer the claim at once,
      // without waiting for the refetch below (a quick click used to find 'Confirme seu e-mail').
      onSuccess: ({ viewerConfirmed }) => {
        if (viewerConfirmed) queryClient.setQueryData(trpc.auth.me.queryKey(), (old) => (old ? { ...old, emailConfirmed: true } : old));
      },
      // Read again after the link was spent. The page's first `auth.me` may still be on its way, read
      // before: invalidating alone would wait for that answer (a query without data keeps its fetch)
      // and keep it, unconfirmed, for the staleTime. So it is cancelled first.
      onSettled: async () => {
        await queryClient.cancelQueries({ queryKey: trpc.auth.me.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      },
    }),
  );
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate({ token });
    // Once per page: a second call would find the link spent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const next = me && benefitId && me.profileType === "parent" ? (
    <Button component={Link} to="/home" search={{ beneficio: benefitId } as never}>
      {publicPagesMessages.goToChosenBenefit}
    </Button>
  ) : me ? (
    <Button component={Link} to={homePathFor(me)}>
      {m.goHome}
    </Button>
  ) : (
    <Button component={Link} to="/login">
      {m.goLogin}
    </Button>
  );

  if (token && (confirm.isIdle || confirm.isPending)) {
    return (
      <AuthCard title={m.bannerTitle}>
        <Center py="lg">
          <Stack align="center" gap="sm">
            <Loader />
            <Text>{m.checkingLink}</Text>
          </Stack>
        </Center>
      </AuthCard>
    );
  }
  if (confirm.isSuccess || me?.emailConfirmed) {
    return (
      <AuthCard title={m.confirmedTitle}>
        <Text>{confirm.isSuccess ? m.confirmedDescription : m.alreadyConfirmed}</Text>
        {next}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={m.invalidLinkTitle}>
      <Text>{m.invalidLinkDescription}</Text>
      {me ? (
        <Button loading={resend.isPending} onClick={() => resend.mutate()}>
          {m.resendButton}
        </Button>
      ) : (
        next
      )}
    </AuthCard>
  );
}
