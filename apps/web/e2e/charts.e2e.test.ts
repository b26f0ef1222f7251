import type { DatabaseHandle } from "@elo/db";
import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./support/axe";
import { DEMO, DESKTOP, loginAs, newPage, snap } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { addEnrollment, seedBenefit, seedCompleteParent, seedPlan, seedSchool, seedStaff, seedVoucher } from "./support/seed";

/** Issue 20's charts on /home-instituicao and /admin-escolas: drawn, readable as tables, in Portuguese formats. */

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const PHONE_375 = { width: 375, height: 740 };
const run = `${Date.now() % 1_000_000}`;
const DAY = 86_400_000;

/** Monday of the Brasília week holding `instant`, as the charts and tables print it (dd/MM). */
function mondayOf(instant: Date) {
  const [y, m, d] = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(instant).split("-").map(Number);
  const local = new Date(Date.UTC(y!, m! - 1, d!));
  const monday = new Date(local.getTime() - ((local.getUTCDay() + 6) % 7) * DAY);
  return `${String(monday.getUTCDate()).padStart(2, "0")}/${String(monday.getUTCMonth() + 1).padStart(2, "0")}`;
}

async function showTable(page: Page, testId: string) {
  const card = page.getByTestId(testId);
  await card.getByText("Tabela", { exact: true }).click();
  const table = page.getByTestId(`${testId}-table`);
  await table.waitFor();
  return table;
}

/** Scrolls a card to the middle of the viewport, for a screenshot of it in place. */
const centre = (page: Page, testId: string) => page.evaluate(`document.querySelector('[data-testid="${testId}"]').scrollIntoView({ block: "center" })`);

const rowCells = async (table: ReturnType<Page["getByTestId"]>, first: string) =>
  (await table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: first, exact: true }) }).locator("th, td").allTextContents()).map((t) => t.trim());

describe("charts", () => {
  it("the school's home draws its weeks, conversion and give and take, each with a table", async () => {
    const school = await seedSchool(db.db, `Escola dos Gráficos ${run}`, "Idiomas", "Moema");
    await seedPlan(db.db, school.id);
    const staff = await seedStaff(db.db, school, `Secretária dos Gráficos ${run}`);
    const benefit = await seedBenefit(db.db, school, "Turma dos Gráficos", { slots: 50 });
    // Three days ago: three vouchers, one used since (33,3%); two weeks ago: two, both used.
    const threeDaysAgo = new Date(Date.now() - 3 * DAY);
    const twoWeeksAgo = new Date(Date.now() - 14 * DAY);
    await seedVoucher(db.db, benefit, null, threeDaysAgo);
    await seedVoucher(db.db, benefit, null, threeDaysAgo);
    await seedVoucher(db.db, benefit, null, threeDaysAgo, "utilizado");
    await seedVoucher(db.db, benefit, null, twoWeeksAgo, "utilizado");
    await seedVoucher(db.db, benefit, null, twoWeeksAgo, "utilizado");
    // Give and take: a family of another school here; a family of this school (by enrollment) at another.
    const visitor = await seedCompleteParent(db.db, `Visitante ${run}`);
    await seedVoucher(db.db, benefit, visitor, twoWeeksAgo, "utilizado");
    const own = await seedCompleteParent(db.db, `Família Própria ${run}`);
    await addEnrollment(db.db, own, school);
    const elsewhere = await seedSchool(db.db, `Escola Vizinha ${run}`, "Clubes", "Moema");
    await seedVoucher(db.db, await seedBenefit(db.db, elsewhere, "Natação Vizinha"), own, twoWeeksAgo);

    for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE_375]] as const) {
      const { page, context } = await newPage(browser, viewport);
      await loginAs(context, staff);
      await page.goto("/home-instituicao");
      for (const id of ["chart-weekly", "chart-conversion", "chart-reciprocity"]) await page.getByTestId(id).locator(".recharts-surface").first().waitFor();
      await snap(page, `charts-school-home-${name}`);
      for (const id of ["chart-weekly", "chart-conversion", "chart-reciprocity"]) {
        await centre(page, id);
        await snap(page, `charts-school-home-${name}-${id}`, { fullPage: false });
      }

      const weekly = await showTable(page, "chart-weekly");
      expect(await weekly.locator("tbody tr").count()).toBe(12);
      // The voucher used at the desk two weeks ago is seeded as used when claimed.
      expect(await rowCells(weekly, mondayOf(threeDaysAgo))).toEqual([mondayOf(threeDaysAgo), "3", "1"]);
      expect(await rowCells(weekly, mondayOf(twoWeeksAgo))).toEqual([mondayOf(twoWeeksAgo), "3", "3"]);
      const conversion = await showTable(page, "chart-conversion");
      expect(await rowCells(conversion, mondayOf(threeDaysAgo))).toEqual([mondayOf(threeDaysAgo), "3", "1", "33,3%"]);
      expect(await rowCells(conversion, mondayOf(twoWeeksAgo))).toEqual([mondayOf(twoWeeksAgo), "3", "3", "100%"]);
      const give = await showTable(page, "chart-reciprocity");
      expect(await rowCells(give, "Suas famílias em outras escolas")).toEqual(["Suas famílias em outras escolas", "1", "0"]);
      expect(await rowCells(give, "Famílias de outras escolas aqui")).toEqual(["Famílias de outras escolas aqui", "1", "1"]);
      expect(describeViolations(`school home tables ${name}`, await axeViolations(page))).toEqual([]);
      await snap(page, `charts-school-home-tables-${name}`);
      await centre(page, "chart-conversion");
      await snap(page, `charts-school-home-tables-${name}-conversion`, { fullPage: false });
      await context.close();
    }
  });

  it("the admin's schools page has the network's overview, with tables", async () => {
    const [admin] = await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, DEMO.admin.email));
    for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE_375]] as const) {
      const { page, context } = await newPage(browser, viewport);
      await loginAs(context, admin!.id);
      await page.goto("/admin-escolas");
      for (const id of ["chart-plans", "chart-ufs", "chart-network-weekly"]) await page.getByTestId(id).locator(".recharts-surface").first().waitFor();
      await snap(page, `charts-admin-overview-${name}`);
      for (const id of ["chart-plans", "chart-ufs", "chart-network-weekly"]) {
        await centre(page, id);
        await snap(page, `charts-admin-overview-${name}-${id}`, { fullPage: false });
      }
      const plans = await showTable(page, "chart-plans");
      expect(await plans.getByRole("rowheader").allTextContents()).toEqual(["Gold", "Silver", "Bronze", "Sem plano"]);
      // The demo world's six schools: two Gold, three Silver, one Bronze (other scenarios add more).
      expect(Number((await rowCells(plans, "Gold"))[1])).toBeGreaterThanOrEqual(2);
      const ufs = await showTable(page, "chart-ufs");
      expect(await ufs.getByRole("rowheader").first().textContent()).toBe("SP");
      expect(await rowCells(ufs, "RJ")).toEqual(["RJ", expect.stringMatching(/^\d[\d.]*$/)]);
      await showTable(page, "chart-network-weekly");
      expect(describeViolations(`admin overview tables ${name}`, await axeViolations(page))).toEqual([]);
      await snap(page, `charts-admin-overview-tables-${name}`);
      await context.close();
    }
  });
});
