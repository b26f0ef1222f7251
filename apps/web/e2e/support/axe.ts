import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** The impacts WCAG 2.2 AA conformance is held to here: none of these may remain. */
export const BLOCKING_IMPACTS = ["serious", "critical"];

/**
 * axe-core's violations on the page as it is now (every rule of its default set: WCAG 2.0-2.2
 * A and AA plus best practices), keeping the serious and critical ones. The source is evaluated
 * through the DevTools protocol, which the app's CSP (`script-src 'self'`) does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axeSource);
  // Contrast is judged on the page at rest: a dialog still fading in reads as low contrast.
  await page.waitForFunction("document.getAnimations().every((a) => a.playState !== 'running')", undefined, { timeout: 5_000 }).catch(() => {});
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 160), failureSummary: (n.failureSummary || "").split("\\n").slice(1).join(" ").slice(0, 160) })) })))`,
  );
  return violations.filter((v) => v.impact !== null && BLOCKING_IMPACTS.includes(v.impact));
}

/** One line per violation and node, for an assertion message a person can act on. */
export const describeViolations = (where: string, violations: AxeViolation[]) =>
  violations.flatMap((v) => v.nodes.map((n) => `${where} · ${v.id} (${v.impact}): ${v.help} · ${n.target.join(" ")} · ${n.html} · ${n.failureSummary}`));
