import { commonUi } from "@elo/shared";
import { createTheme, darken, DEFAULT_THEME, luminance, type CSSVariablesResolver } from "@mantine/core";

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** `color`, darkened in small steps until text in it reads at 4.5:1 on `background` (WCAG 1.4.3 AA). */
export function readableOn(color: string, background: string): string {
  let out = color;
  for (let amount = 0.05; contrast(out, background) < 4.6 && amount < 1; amount += 0.05) out = darken(color, amount);
  return out;
}

const WHITE = DEFAULT_THEME.white;

/**
 * Mantine's light scheme writes text in colours that read below 4.5:1: dimmed and placeholder
 * (gray 6 and 5), errors (red 6), `c="orange"` or outline badges (shade 8 of orange, teal, green,
 * yellow) and light badges and buttons (shade 9 on shade 1). Each is replaced by the same hue made
 * dark enough (docs/decisions/128-accessible-colours.md).
 */
const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    "--mantine-color-dimmed": readableOn(theme.colors.gray[6], theme.colors.gray[0]),
    "--mantine-color-placeholder": readableOn(theme.colors.gray[6], WHITE),
    "--mantine-color-error": readableOn(theme.colors.red[7], WHITE),
    // Links also sit in light alerts (primary shade 1).
    "--mantine-color-anchor": readableOn(theme.colors[theme.primaryColor]![8], theme.colors[theme.primaryColor]![1]),
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    const onWhite = readableOn(shades[8], WHITE);
    light[`--mantine-color-${name}-text`] = onWhite;
    light[`--mantine-color-${name}-outline`] = onWhite;
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[1]);
  }
  return { variables: {}, light, dark: {} };
};

export const theme = createTheme({
  primaryColor: "blue",
  // Shade 8 carries white text at 5:1; other colours' filled buttons and badges take black or
  // white text, whichever reads better: 0.179 is the luminance at which both read alike (4.58:1).
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.179,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
  defaultRadius: "md",
  components: {
    // A toast's text under its title is gray 6 (3.3:1) in Mantine's stylesheet.
    Notification: { defaultProps: { closeButtonProps: { "aria-label": commonUi.closeToast } }, styles: { description: { color: "var(--mantine-color-dimmed)" } } },
    // Buttons Mantine leaves nameless: clear buttons of file and date inputs (the selects' are hidden
    // from both), close buttons, a pagination's arrows.
    FileInput: { defaultProps: { clearButtonProps: { "aria-label": commonUi.clearFile } } },
    DateInput: { defaultProps: { clearButtonProps: { "aria-label": commonUi.clearDate } } },
    Pagination: { defaultProps: { getControlProps: (control: keyof typeof commonUi.pagination) => ({ "aria-label": commonUi.pagination[control] }) } },
    Modal: { defaultProps: { closeButtonProps: { "aria-label": commonUi.closeDialog } } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": commonUi.closeDialog } } },
    // A table wider than the screen scrolls inside its container: the keyboard must reach it (a11y.css shows its focus).
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
  },
});

export { cssVariablesResolver };
