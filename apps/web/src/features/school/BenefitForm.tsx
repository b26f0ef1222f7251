import {
  accessMessages,
  CLASS_PERIOD_LABELS,
  CLASS_PERIODS,
  discountedFee,
  DISCOUNT_SCOPE_LABELS,
  DISCOUNT_SCOPES,
  DISCOUNT_VALIDITIES,
  DISCOUNT_VALIDITY_LABELS,
  formatDecimal,
  LIMITS,
  parseBRL,
  readBRL,
  schoolMessages,
  schoolUi,
  TEACHING_STAGE_LABELS,
  TEACHING_STAGES,
  type BenefitInput,
  type ClassPeriod,
  type DiscountScope,
  type DiscountValidity,
  type TeachingStage,
} from "@elo/shared";
import { Alert, Button, Checkbox, Group, NumberInput, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { notifyError } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

export interface BenefitFormValues {
  teachingStage: TeachingStage | null;
  categoryId: number | null;
  modalityId: number | null;
  className: string;
  classPeriod: ClassPeriod | null;
  discountScope: DiscountScope | null;
  monthlyFee: string;
  discountPercentage: number | string;
  discountValidity: DiscountValidity | null;
  numberOfStudents: number | string;
  /** Empty: no hold (decision 121). */
  holdDays: number | string;
  requiresVerifiedEnrollment: boolean;
}

export const emptyBenefit: BenefitFormValues = {
  teachingStage: null,
  categoryId: null,
  modalityId: null,
  className: "",
  classPeriod: null,
  discountScope: null,
  monthlyFee: "",
  discountPercentage: "",
  discountValidity: null,
  numberOfStudents: "",
  holdDays: "",
  requiresVerifiedEnrollment: false,
};

const options = <T extends string>(values: readonly T[], labels: Record<T, string>) => values.map((v) => ({ value: v, label: labels[v] }));

/** The form's values as the server's input, or null when a field is missing or out of range. */
export function toBenefitInput(v: BenefitFormValues): BenefitInput | null {
  const fee = parseBRL(v.monthlyFee);
  const pct = typeof v.discountPercentage === "number" ? v.discountPercentage : Number.NaN;
  const slots = typeof v.numberOfStudents === "number" ? v.numberOfStudents : Number.NaN;
  if (!v.teachingStage || !v.categoryId || !v.modalityId || !v.className.trim() || !v.classPeriod || !v.discountScope || !v.discountValidity) return null;
  if (!(fee > 0) || !(pct >= 0 && pct <= 100) || !(Number.isInteger(slots) && slots >= 1)) return null;
  const hold = v.holdDays === "" ? null : Number(v.holdDays);
  if (hold !== null && !(Number.isInteger(hold) && hold >= 1 && hold <= LIMITS.holdDaysMax)) return null;
  return {
    teachingStage: v.teachingStage,
    categoryId: v.categoryId,
    modalityId: v.modalityId,
    className: v.className.trim(),
    classPeriod: v.classPeriod,
    discountScope: v.discountScope,
    monthlyFee: fee,
    discountPercentage: Math.round(pct * 100) / 100,
    discountValidity: v.discountValidity,
    numberOfStudents: slots,
    holdDays: hold,
    requiresVerifiedEnrollment: v.requiresVerifiedEnrollment,
  };
}

/** The benefit form of spec 2 §5: create mode, or edit mode with 'Cancelar edição'. */
export function BenefitForm(props: {
  initial: BenefitFormValues;
  editing: boolean;
  disabled?: boolean;
  /** Vouchers were issued: fee, percentage and validity can no longer change (docs/decisions/043). */
  termsLocked?: boolean;
  saving: boolean;
  onSubmit: (input: BenefitInput) => void;
  onCancel: () => void;
}) {
  const locked = !!props.termsLocked;
  const [v, setV] = useState<BenefitFormValues>(props.initial);
  const categories = useQuery(trpc.reference.categories.queryOptions());
  const modalities = useQuery({ ...trpc.reference.modalities.queryOptions({ categoryId: v.categoryId ?? 0 }), enabled: !!v.categoryId });
  const set = (patch: Partial<BenefitFormValues>) => setV((prev) => ({ ...prev, ...patch }));
  const fee = parseBRL(v.monthlyFee);
  const pct = typeof v.discountPercentage === "number" ? v.discountPercentage : Number.NaN;
  const preview = fee >= 0 && pct >= 0 && pct <= 100 ? formatDecimal(discountedFee(fee, pct)) : "";
  // Centavos are the smallest unit: 0,001 is refused on the field, never rounded (decision 109).
  const feeError = readBRL(v.monthlyFee) === "too_precise" ? schoolMessages.feeTooPrecise : undefined;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (feeError) {
          notifyError({ title: accessMessages.validationTitle, description: feeError });
          return;
        }
        const input = toBenefitInput(v);
        if (!input) {
          notifyError({ title: schoolMessages.requiredFieldsTitle, description: schoolMessages.requiredFieldsDescription });
          return;
        }
        props.onSubmit(input);
      }}
    >
      <Stack>
        {locked && (
          <Alert color="blue" data-testid="terms-locked">
            {schoolUi.termsLockedNote}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label={schoolUi.teachingStage} required data={options(TEACHING_STAGES, TEACHING_STAGE_LABELS)} value={v.teachingStage} onChange={(x) => set({ teachingStage: x as TeachingStage | null })} />
          <TextInput label={schoolUi.className} required value={v.className} onChange={(e) => set({ className: e.currentTarget.value })} maxLength={120} />
          <Select
            label={schoolUi.category}
            required
            data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={v.categoryId ? String(v.categoryId) : null}
            onChange={(x) => set({ categoryId: x ? Number(x) : null, modalityId: null })}
          />
          <Select
            label={schoolUi.modality}
            required
            searchable
            disabled={!v.categoryId}
            data={(modalities.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
            value={v.modalityId ? String(v.modalityId) : null}
            onChange={(x) => set({ modalityId: x ? Number(x) : null })}
          />
          <Select label={schoolUi.classPeriod} required data={options(CLASS_PERIODS, CLASS_PERIOD_LABELS)} value={v.classPeriod} onChange={(x) => set({ classPeriod: x as ClassPeriod | null })} />
          <Select label={schoolUi.validityField} required data={options(DISCOUNT_VALIDITIES, DISCOUNT_VALIDITY_LABELS)} value={v.discountValidity} onChange={(x) => set({ discountValidity: x as DiscountValidity | null })} disabled={locked} />
        </SimpleGrid>
        <Select label={schoolUi.scope} required data={options(DISCOUNT_SCOPES, DISCOUNT_SCOPE_LABELS)} value={v.discountScope} onChange={(x) => set({ discountScope: x as DiscountScope | null })} />
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <TextInput
            label={schoolUi.monthlyFee}
            required
            inputMode="decimal"
            placeholder="0,00"
            disabled={locked}
            error={feeError}
            value={v.monthlyFee}
            onChange={(e) => set({ monthlyFee: e.currentTarget.value.replace(/[^\d,]/g, "").replace(/(,.*),/g, "$1") })}
            onBlur={() => {
              const n = parseBRL(v.monthlyFee);
              if (!Number.isNaN(n)) set({ monthlyFee: formatDecimal(n) });
            }}
          />
          <NumberInput label={schoolUi.percentage} required min={0} max={100} step={0.01} decimalScale={2} decimalSeparator="," clampBehavior="strict" disabled={locked} value={v.discountPercentage} onChange={(x) => set({ discountPercentage: x })} />
          <TextInput label={schoolUi.discountedFee} readOnly value={preview} data-testid="discounted-fee" />
          <NumberInput label={schoolUi.numberOfStudents} required min={1} step={1} allowDecimal={false} allowNegative={false} value={v.numberOfStudents} onChange={(x) => set({ numberOfStudents: x })} />
        </SimpleGrid>
        <NumberInput
          label={schoolUi.holdDays}
          description={schoolUi.holdDaysHint}
          placeholder={schoolUi.holdDaysNone}
          min={1}
          max={LIMITS.holdDaysMax}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          disabled={locked}
          value={v.holdDays}
          onChange={(x) => set({ holdDays: x })}
          maw={360}
        />
        <Checkbox
          label={schoolUi.requireVerifiedLabel}
          description={schoolUi.requireVerifiedDescription}
          checked={v.requiresVerifiedEnrollment}
          onChange={(e) => set({ requiresVerifiedEnrollment: e.currentTarget.checked })}
        />
        <Group justify="flex-end">
          {props.editing && (
            <Button variant="default" onClick={props.onCancel}>
              {schoolMessages.cancelEdit}
            </Button>
          )}
          <Button type="submit" loading={props.saving} disabled={props.disabled}>
            {props.editing ? schoolUi.update : schoolUi.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
