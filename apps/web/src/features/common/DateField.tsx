import "@mantine/dates/styles.css";
import "dayjs/locale/pt-br";
import { commonUi, parseDateBR } from "@elo/shared";
import { DateInput, DatesProvider, type DateInputProps } from "@mantine/dates";

const PT_BR = { locale: "pt-br", firstDayOfWeek: 0 } as const;

/**
 * A date typed as dd/mm/aaaa (or picked from a pt-BR calendar) whatever the browser's language;
 * the value stays yyyy-MM-dd, "" when empty, as the forms and the server keep it.
 */
export function DateField({ value, onChange, ...props }: Omit<DateInputProps, "value" | "onChange" | "valueFormat" | "dateParser"> & { value?: string; onChange?: (value: string) => void }) {
  return (
    <DatesProvider settings={PT_BR}>
      <DateInput
        valueFormat="DD/MM/YYYY"
        dateParser={parseDateBR}
        placeholder={commonUi.datePlaceholder}
        clearable
        {...props}
        value={value || null}
        onChange={(next) => onChange?.(next ?? "")}
      />
    </DatesProvider>
  );
}
