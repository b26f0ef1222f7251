import { accessMessages, authMessages, authPageMessages as m, LIMITS, signupInput, type PlanType } from "@elo/shared";
import { Anchor, Button, Checkbox, Fieldset, PasswordInput, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { closeToast, notifyError, notifyFailure, notifyOk } from "../../lib/notify";
import { afterAuth } from "../../lib/plan-choice";
import { trpc } from "../../lib/trpc";
import { AuthCard } from "./AuthCard";
import { emptyLocation, LocationSelects, type LocationValue } from "./LocationSelects";
import { refreshSession } from "./session";

const SIGNUP_TOAST = "signup-redirect";

type ProfileChoice = "parent" | "institution";

export const TERMS_PDF = "/termos-de-uso-e-privacidade.pdf";

/**
 * /signup: profile toggle, location, name, e-mail, password and the three consents. `plan` is the
 * plan a visitor chose on /para-escolas: an institution continues to its confirmation.
 */
export function SignupPage({ initialProfile, plan, benefitId }: { initialProfile: ProfileChoice; plan?: PlanType; benefitId?: string }) {
  const [profileType, setProfileType] = useState<ProfileChoice>(initialProfile);
  // Each profile keeps its own location; switching clears the other one's selection.
  const [location, setLocation] = useState<LocationValue>(emptyLocation);
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [terms, setTerms] = useState(false);
  const [dataProcessing, setDataProcessing] = useState(false);
  const [marketing, setMarketing] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const narrow = useMediaQuery("(max-width: 26em)");
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const signup = useMutation(
    trpc.auth.signup.mutationOptions({
      onSuccess: async (result) => {
        setDone(true);
        notifyOk({ title: authMessages.signupSuccessTitle, description: authMessages.signupSuccessDescription }, { id: SIGNUP_TOAST });
        await refreshSession(queryClient);
        timer.current = setTimeout(async () => {
          // A benefit chosen on a public page (issue 26): the parent lands on it, ready to claim.
          if (benefitId && result.profileType === "parent") await navigate({ to: "/home", search: { beneficio: benefitId }, replace: true });
          else await navigate({ ...afterAuth(result, plan, result.profileType === "institution" ? "/home-instituicao" : "/home"), replace: true });
          // "Você será redirecionado em instantes" is no longer true once the next page is shown.
          closeToast(SIGNUP_TOAST);
        }, LIMITS.redirectAfterSignupMs);
      },
      onError: (error) => notifyFailure(error, { title: authMessages.signupErrorTitle, description: error.message }),
    }),
  );

  const switchProfile = (next: ProfileChoice) => {
    if (next === profileType) return;
    setProfileType(next);
    setLocation(emptyLocation);
    if (next === "institution") setFullName("");
  };

  const filled = !!(fullName.trim() && location.stateId && location.cityId && location.neighborhoodId && email.trim() && password);
  const canSubmit = filled && terms && dataProcessing && !done;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!terms || !dataProcessing) {
      notifyError({ title: accessMessages.validationTitle, description: authMessages.consentsRequired });
      return;
    }
    const parsed = signupInput.safeParse({
      profileType,
      fullName,
      email,
      password,
      stateId: Number(location.stateId),
      cityId: Number(location.cityId),
      neighborhoodId: Number(location.neighborhoodId),
      termsAccepted: terms,
      dataProcessingConsent: dataProcessing,
      marketingConsent: marketing,
      ...(benefitId && profileType === "parent" ? { benefitId } : {}),
    });
    if (!parsed.success) {
      notifyError({ title: accessMessages.validationTitle, description: parsed.error.issues[0]?.message });
      return;
    }
    signup.mutate(parsed.data);
  };

  return (
    <AuthCard title={m.signupTitle} subtitle={m.signupSubtitle} size={640}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SegmentedControl
            fullWidth
            orientation={narrow ? "vertical" : "horizontal"}
            value={profileType}
            onChange={(v) => switchProfile(v as ProfileChoice)}
            data={[
              { value: "parent", label: m.profileParent },
              { value: "institution", label: m.profileInstitution },
            ]}
            aria-label={m.signupTitle}
          />
          <Fieldset legend={profileType === "institution" ? m.institutionLocationLegend : m.parentLocationLegend} variant="filled">
            <Stack gap="xs">
              <LocationSelects value={location} onChange={setLocation} />
              {profileType === "institution" && (
                <Text size="sm" c="dimmed">
                  {m.institutionNote}
                </Text>
              )}
            </Stack>
          </Fieldset>
          <TextInput label={m.fullNameLabel} placeholder={m.fullNamePlaceholder} autoComplete="name" maxLength={LIMITS.nameMax} value={fullName} onChange={(e) => setFullName(e.currentTarget.value)} />
          <TextInput label={m.emailLabel} placeholder={m.emailPlaceholder} type="email" autoComplete="email" maxLength={LIMITS.emailMax} value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={m.passwordLabel} description={m.passwordHint} autoComplete="new-password" maxLength={LIMITS.passwordMax} value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Stack gap="xs">
            <Checkbox label={m.consentTerms} checked={terms} onChange={(e) => setTerms(e.currentTarget.checked)} />
            <Checkbox label={m.consentDataProcessing} checked={dataProcessing} onChange={(e) => setDataProcessing(e.currentTarget.checked)} />
            <Checkbox label={m.consentMarketing} checked={marketing} onChange={(e) => setMarketing(e.currentTarget.checked)} />
            <Anchor href={TERMS_PDF} target="_blank" rel="noopener" size="sm">
              {m.termsLink}
            </Anchor>
          </Stack>
          <Button type="submit" fullWidth disabled={!canSubmit} loading={signup.isPending}>
            {m.signupButton}
          </Button>
          <Text size="sm" ta="center">
            {m.haveAccount}{" "}
            <Anchor renderRoot={(props) => <Link {...props} to="/login" search={plan ? { plan } : {}} />}>
              {m.loginLink}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
