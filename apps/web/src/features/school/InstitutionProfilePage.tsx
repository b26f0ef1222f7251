import { MASK_PATTERNS, maskPhone, privacyPageMessages, profileMessages, schoolUi } from "@elo/shared";
import { Alert, Badge, Button, Card, Group, InputBase, Select, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { IMaskInput } from "react-imask";
import { fieldErrors, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { LocationSelects, type Location } from "./LocationSelects";
import { MembershipNotice } from "./StaffGate";

const STATUS_BADGE = {
  approved: { color: "teal", label: schoolUi.membershipApproved },
  pending: { color: "yellow", label: schoolUi.membershipPendingBadge },
  rejected: { color: "red", label: schoolUi.membershipRejectedBadge },
} as const;

/** /meus-dados for institution users: name, WhatsApp, position and the school link request. */
export function InstitutionProfilePage() {
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.school.profile.get.queryOptions());
  const positions = useQuery(trpc.reference.positions.queryOptions());
  const [fullName, setFullName] = useState("");
  const [phone, setPhone] = useState("");
  const [position, setPosition] = useState<string | null>(null);
  const [place, setPlace] = useState<Location>({ stateId: null, cityId: null, neighborhoodId: null });
  const [schoolId, setSchoolId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const schools = useQuery({ ...trpc.school.profile.schools.queryOptions({ neighborhoodId: place.neighborhoodId ?? 0 }), enabled: !!place.neighborhoodId });

  const data = profile.data;
  useEffect(() => {
    if (!data) return;
    setFullName(data.fullName);
    setPhone(data.phone ? maskPhone(data.phone) : "");
    setPosition(data.positionListed ? data.position : null);
    if (data.membership) {
      setPlace({ stateId: data.membership.stateId, cityId: data.membership.cityId, neighborhoodId: data.membership.neighborhoodId });
      setSchoolId(data.membership.schoolId);
    }
  }, [data]);

  const save = useMutation(
    trpc.school.profile.save.mutationOptions({
      onSuccess: async (result) => {
        notifyOk(result.requested ? { title: profileMessages.schoolRequestSent, description: profileMessages.membershipPendingDescription } : { title: profileMessages.savedTitle, description: profileMessages.savedDescription });
        setErrors({});
        await queryClient.invalidateQueries({ queryKey: trpc.school.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      },
      onError: (error) => {
        setErrors(fieldErrors(error));
        notifyFailure(error, { title: profileMessages.saveErrorTitle, description: profileMessages.saveErrorDescription });
      },
    }),
  );

  if (profile.isPending) return <PageLoader />;
  const membership = data?.membership ?? null;
  const changing = !!schoolId && schoolId !== membership?.schoolId;

  return (
    <Page title={schoolUi.myDataTitle} size="md">
      {membership && membership.status !== "approved" && <MembershipNotice status={membership.status} />}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ fullName, phone: phone || null, position, schoolId: changing ? schoolId : null });
        }}
      >
        <Stack>
          <Card withBorder padding="lg">
            <Stack>
              <TextInput label={schoolUi.fullName} required value={fullName} onChange={(e) => setFullName(e.currentTarget.value)} error={errors.fullName} maxLength={100} />
              <InputBase
                label={schoolUi.whatsapp}
                component={IMaskInput}
                mask={MASK_PATTERNS.phone as never}
                value={phone}
                onAccept={(v: string) => setPhone(v)}
                error={errors.phone}
                placeholder="(00) 00000-0000"
              />
              {data && !data.positionListed && (
                <Alert color="yellow" data-testid="position-notice">
                  {profileMessages.positionNotListed}
                </Alert>
              )}
              <Select
                label={schoolUi.position}
                placeholder={schoolUi.positionPlaceholder}
                data={(positions.data ?? []).map((p) => p.name)}
                value={position}
                onChange={setPosition}
                clearable
                error={errors.position}
              />
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <Group justify="space-between">
                <Text fw={600}>{schoolUi.yourSchool}</Text>
                {membership && (
                  <Badge color={STATUS_BADGE[membership.status].color} variant="light">
                    {STATUS_BADGE[membership.status].label}
                  </Badge>
                )}
              </Group>
              {membership && <Text>{membership.schoolName}</Text>}
              <LocationSelects
                value={place}
                onChange={(next) => {
                  setPlace(next);
                  setSchoolId(null);
                }}
              />
              <Select
                label={schoolUi.school}
                placeholder={place.neighborhoodId ? schoolUi.schoolPlaceholder : profileMessages.pickLocationFirst}
                searchable
                disabled={!place.neighborhoodId}
                data={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                value={schoolId}
                onChange={setSchoolId}
                nothingFoundMessage={profileMessages.noSchoolsInNeighborhood}
              />
              {membership && changing && (
                <Text size="sm" c="dimmed">
                  {schoolUi.changeSchoolNote}
                </Text>
              )}
            </Stack>
          </Card>
          <Group justify="space-between" wrap="wrap">
            {/* Export and account deletion live there, for school staff as for parents. */}
            <Button component={Link} to="/privacidade-lgpd" variant="subtle">
              {privacyPageMessages.title}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {changing ? schoolUi.requestSchool : schoolUi.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Page>
  );
}
