import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

interface FocusReport {
  ok: boolean;
  what: string;
  why?: string;
}

/**
 * Whether the focused element shows that it has focus and can be seen (WCAG 2.4.7 and 2.4.11):
 * an outline, a box shadow, or (Mantine's inputs) the primary colour on its border; its centre in
 * the viewport and not under another element (the sticky header, a toast).
 */
const FOCUS_REPORT = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { ok: false, what: "body", why: "nothing has focus" };
  const what = el.tagName.toLowerCase() + (el.type ? "[" + el.type + "]" : "") + " " + (el.getAttribute("aria-label") || (el.labels && el.labels[0] && el.labels[0].textContent) || el.textContent || el.getAttribute("name") || "").trim().slice(0, 60);
  const probe = document.createElement("span");
  probe.style.color = "var(--mantine-primary-color-filled)";
  document.body.append(probe);
  const primary = getComputedStyle(probe).color;
  probe.remove();
  // A visually hidden input (a segmented control's radio) shows its focus on the label after it.
  const box = el.getBoundingClientRect();
  const hidden = box.width < 2 || box.height < 2 || getComputedStyle(el).opacity === "0";
  // Mantine's password field draws its border on the wrapper around the real input (:focus-within).
  const shown = hidden ? [el.nextElementSibling, ...(el.labels || [])].filter(Boolean) : [el, el.parentElement].filter(Boolean);
  const marked = shown.find((x) => {
    const cs = getComputedStyle(x);
    const outline = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 1;
    const border = [cs.borderTopColor, cs.borderBottomColor].includes(primary) && parseFloat(cs.borderTopWidth) >= 1;
    return outline || cs.boxShadow !== "none" || border;
  });
  if (!marked) { const cs = getComputedStyle(shown[0] || el); return { ok: false, what, why: "no focus indicator (outline " + cs.outlineStyle + ", border " + cs.borderTopColor + ")" }; }
  const r = marked.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) return { ok: false, what, why: "outside the viewport" };
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 12), 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  const mine = (n) => n && (marked.contains(n) || n.contains(marked) || el.contains(n) || (el.labels && [...el.labels].some((l) => l.contains(n))));
  if (top && !mine(top)) return { ok: false, what, why: "covered by " + top.tagName.toLowerCase() + "." + String(top.className).slice(0, 60) };
  return { ok: true, what };
})()`;

/** Fails unless the focused element has a visible focus indicator and is not hidden. */
export async function expectFocusVisible(page: Page, step = "") {
  // Mantine's inputs change their border colour over 100 ms: give a transition time to end.
  let report = await page.evaluate<FocusReport>(FOCUS_REPORT);
  for (let i = 0; i < 6 && !report.ok; i++) {
    await page.waitForTimeout(100);
    report = await page.evaluate<FocusReport>(FOCUS_REPORT);
  }
  expect(report.ok, `${step} focus on ${report.what}: ${report.why}`).toBe(true);
  return report.what;
}

const isFocused = (target: Locator) => target.evaluate((el) => el === el.ownerDocument.activeElement || el.contains(el.ownerDocument.activeElement)).catch(() => false);

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has focus, checking at every stop that focus
 * is visible. Returns the stops passed, for a message when the target is never reached.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}) {
  await target.waitFor();
  const stops: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    // Past the last element focus leaves the page (to the browser's own controls); the next Tab
    // comes back to the first one.
    if (await page.evaluate<boolean>("document.activeElement === document.body")) {
      stops.push("(browser)");
      continue;
    }
    stops.push(await expectFocusVisible(page, `after ${stops.slice(-6).join(" | ")} (${stops.length + 1} Tabs),`));
    if (await isFocused(target)) return stops;
  }
  throw new Error(`never reached ${String(target)} with ${max} Tab presses; passed ${stops.slice(-10).join(" | ")}`);
}

/** Tabs to a text field and types into it. */
export async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

/**
 * Tabs to a Mantine Select, types to filter it (when it takes typing), moves with the arrow keys to
 * the option and chooses it with Enter.
 */
export async function chooseOption(page: Page, combobox: Locator, option: string, typed?: string) {
  await tabTo(page, combobox);
  if (typed) await page.keyboard.type(typed);
  else await page.keyboard.press("ArrowDown");
  const listbox = page.getByRole("listbox").filter({ has: page.getByRole("option", { name: option, exact: true }) });
  await listbox.waitFor();
  for (let i = 0; i < 60; i++) {
    const current = listbox.locator("[data-combobox-selected]");
    if ((await current.count()) && (await current.first().textContent())?.trim() === option) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  await expect.poll(() => combobox.inputValue()).toBe(option);
}

/**
 * Tabs to a button that opens the file chooser, presses Enter and answers with `file`. The
 * chooser is awaited before the Tab presses: Playwright intercepts choosers only once asked to,
 * and that request must reach the browser before the key does.
 */
export async function chooseFileByKeyboard(page: Page, button: Locator, file: string) {
  const chooser = page.waitForEvent("filechooser");
  await tabTo(page, button);
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(file);
}

/** Presses a key on the element Tab reaches (Enter on a button or link, Space on a checkbox). */
export async function activate(page: Page, target: Locator, key: "Enter" | "Space" = "Enter") {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/**
 * A modal dialog holds focus: focus is inside it once open, and Tab and Shift+Tab past its last and
 * first elements stay inside. Closes it with Escape and checks focus went back to `returnTo`.
 */
export async function expectDialogTrapsFocus(page: Page, dialog: Locator, returnTo: Locator) {
  await dialog.waitFor();
  const inside = () => dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement));
  await expect.poll(inside, { message: "focus moves into the dialog" }).toBe(true);
  const tabbables = await dialog.locator("a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])").count();
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < tabbables + 2; i++) {
      await page.keyboard.press(key);
      expect(await inside(), `${key} ${i + 1} left the dialog`).toBe(true);
      await expectFocusVisible(page, `dialog ${key} ${i + 1}`);
    }
  }
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await expect.poll(() => isFocused(returnTo), { message: "focus returns to what opened the dialog" }).toBe(true);
}
