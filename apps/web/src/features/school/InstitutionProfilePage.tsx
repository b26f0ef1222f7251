import { MASK_PATTERNS, maskPhone, privacyPageMessages, profileMessages, schoolUi } from "@elo/shared";
import { Alert, Badge, Button, Card, Group, InputBase, Select, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { IMaskInput } from "react-imask";
import { fieldErrors, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";
import { Page } from "../common/Page";
import { PageLoader } from "../layout/PageLoader";
import { useLoadedOnce } from "../common/useLoadedOnce";
import { LocationSelects, useLocationLists, type Location } from "./LocationSelects";
import { MembershipNotice } from "./StaffGate";

const STATUS_BADGE = {
  approved: { color: "teal", label: schoolUi.membershipApproved },
  pending: { color: "yellow", label: schoolUi.membershipPendingBadge },
  rejected: { color: "red", label: schoolUi.membershipRejectedBadge },
} as const;

type InstitutionProfile = NonNullable<ReturnType<typeof useInstitutionProfile>["data"]>;
const useInstitutionProfile = () => useQuery(trpc.school.profile.get.queryOptions());

const placeOf = (membership: InstitutionProfile["membership"]): Location =>
  membership ? { stateId: membership.stateId, cityId: membership.cityId, neighborhoodId: membership.neighborhoodId } : { stateId: null, cityId: null, neighborhoodId: null };

/** /meus-dados for institution users: name, WhatsApp, position and the school link request. */
export function InstitutionProfilePage() {
  const profile = useInstitutionProfile();
  const positions = useQuery(trpc.reference.positions.queryOptions());
  // The selects show their saved values from the first paint: their option lists come first.
  const saved = placeOf(profile.data?.membership ?? null);
  const lists = useLocationLists(saved);
  const schools = useQuery({ ...trpc.school.profile.schools.queryOptions({ neighborhoodId: saved.neighborhoodId ?? 0 }), enabled: !!saved.neighborhoodId });
  const loaded = useLoadedOnce(!profile.isPending && !positions.isPending && lists.ready && (!saved.neighborhoodId || !schools.isPending));
  if (!loaded || !profile.data) return <PageLoader />;
  return <InstitutionProfileForm data={profile.data} positions={(positions.data ?? []).map((p) => p.name)} />;
}

function InstitutionProfileForm({ data, positions }: { data: InstitutionProfile; positions: string[] }) {
  const queryClient = useQueryClient();
  const [fullName, setFullName] = useState(data.fullName);
  const [phone, setPhone] = useState(data.phone ? maskPhone(data.phone) : "");
  const [position, setPosition] = useState<string | null>(data.positionListed ? data.position : null);
  const [place, setPlace] = useState<Location>(() => placeOf(data.membership));
  const [schoolId, setSchoolId] = useState<string | null>(data.membership?.schoolId ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const schools = useQuery({ ...trpc.school.profile.schools.queryOptions({ neighborhoodId: place.neighborhoodId ?? 0 }), enabled: !!place.neighborhoodId });

  // After a save, the server's answer is what the form shows.
  const [shown, setShown] = useState(data);
  if (shown !== data) {
    setShown(data);
    setFullName(data.fullName);
    setPhone(data.phone ? maskPhone(data.phone) : "");
    setPosition(data.positionListed ? data.position : null);
    if (data.membership) {
      setPlace(placeOf(data.membership));
      setSchoolId(data.membership.schoolId);
    }
  }

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

  const membership = data.membership;
  const changing = !!schoolId && schoolId !== membership?.schoolId;
  // A refused request may be sent again for the same school (the admin's queue marks it as a repeat).
  const requesting = changing || (!!schoolId && membership?.status === "rejected");

  return (
    <Page title={schoolUi.myDataTitle} size="md">
      {membership && membership.status !== "approved" && <MembershipNotice status={membership.status} onMyData />}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ fullName, phone: phone || null, position, schoolId: requesting ? schoolId : null });
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
              {!data.positionListed && (
                <Alert color="yellow" data-testid="position-notice">
                  {profileMessages.positionNotListed}
                </Alert>
              )}
              <Select
                label={schoolUi.position}
                placeholder={schoolUi.positionPlaceholder}
                data={positions}
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
              {requesting ? schoolUi.requestSchool : schoolUi.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Page>
  );
}
