import { schema, type DatabaseHandle } from "@elo/db";
import { ADMIN_SCHOOLS_PAGE_SIZE } from "@elo/shared";
import { count, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { generateSecret, hashSecret } from "../../server/src/auth/tokens";
import { axeViolations, describeViolations } from "./support/axe";
import { DEMO, DESKTOP, loginAs, newPage } from "./support/browser";
import { withBrowserAndDatabase } from "./support/db";
import { pagePaths } from "./support/route-tree";
import { seedBenefit, seedCompleteParent, seedPlan, seedSchool, seedStaff, seedVoucher } from "./support/seed";

/**
 * Issue 20, WCAG 2.2 AA: axe-core on every page of the route tree, as every role, at desktop and
 * phone widths. No serious or critical violation may remain. A page is "reached" by a role when
 * the browser stays on its path; every page must be reached by at least one role, so a new page
 * is swept as soon as it exists (or this test says what it needs to be shown).
 */

let browser: Browser;
let db: DatabaseHandle;
withBrowserAndDatabase((opened) => ({ browser, db } = opened));

const PHONE_375 = { width: 375, height: 740 };
const WIDTHS = { desktop: DESKTOP, phone: PHONE_375 } as const;
const ROLES = ["public", "parent", "school", "admin"] as const;
type Role = (typeof ROLES)[number];

/** Pages that only redirect (they have no screen of their own). */
const REDIRECT_ONLY = ["/dashboard"];

interface SweepWorld {
  users: Record<Exclude<Role, "public">, string>;
  /** The search string a page needs to show its screen to a role rather than redirect. */
  search: Record<string, (role: Role) => Promise<string> | string>;
}

const run = `${Date.now() % 1_000_000}`;
const userId = async (email: string) => (await db.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)))[0]!.id;

/**
 * The roles: the demo admin; a school with a Silver plan, benefits and vouchers over the last weeks
 * (so its home has figures to draw); a parent with a complete profile who holds one of its vouchers.
 */
async function buildWorld(): Promise<SweepWorld> {
  const school = await seedSchool(db.db, `Escola Acessível ${run}`, "Idiomas", "Moema");
  await seedPlan(db.db, school.id);
  const staff = await seedStaff(db.db, school, `Secretária Acessível ${run}`);
  const parent = await seedCompleteParent(db.db, `Responsável Acessível ${run}`);
  const benefit = await seedBenefit(db.db, school, "Inglês Acessível");
  const other = await seedBenefit(db.db, school, "Conversação Acessível");
  const voucher = await seedVoucher(db.db, benefit, parent, new Date(Date.now() - 3_600_000));
  // Enough schools for the admin's list to have a second page, so its pagination is swept too.
  const [{ n } = { n: 0 }] = await db.db.select({ n: count() }).from(schema.schools);
  for (let i = n; i <= ADMIN_SCHOOLS_PAGE_SIZE; i++) await seedSchool(db.db, `Escola Paginada ${i} ${run}`, "Outros", "Moema");
  for (const weeksAgo of [1, 2, 2, 5]) await seedVoucher(db.db, other, null, new Date(Date.now() - weeksAgo * 7 * 86_400_000), weeksAgo === 2 ? "utilizado" : "reservado");
  return {
    users: { parent, school: staff, admin: await userId(DEMO.admin.email) },
    search: {
      "/confirmacao-desconto": () => `?transaction=${voucher.id}`,
      "/confirmacao-plano": () => "?plan=gold",
      "/reset-password": async (role) => {
        if (role !== "public") return "";
        const token = generateSecret();
        await db.db.insert(schema.passwordResetTokens).values({ id: hashSecret(token), userId: parent, expiresAt: new Date(Date.now() + 3_600_000) });
        return `?token=${token}`;
      },
    },
  };
}

/** Waits until the page shows its content: no spinner, no skeleton, no running transition. */
async function settle(page: Page) {
  await page.locator("main").waitFor();
  const busy = "document.querySelectorAll('[aria-busy=\"true\"], .mantine-Skeleton-root[data-visible]').length + (document.querySelector('main').childElementCount > 0 ? 0 : 1)";
  await expect.poll(() => page.evaluate<number>(busy), { timeout: 15_000 }).toBe(0);
  await page.waitForLoadState("load");
  await page.waitForTimeout(400);
}

let world: SweepWorld | undefined;
const reached = new Map<string, Set<string>>();

describe("accessibility sweep (axe-core, WCAG 2.2 AA)", () => {
  it("reads the pages from the route tree", () => {
    const paths = pagePaths();
    expect(paths).toContain("/");
    expect(paths).toContain("/admin-escolas");
    for (const p of [...REDIRECT_ONLY]) expect(paths, `${p} is no longer a page`).toContain(p);
  });

  for (const role of ROLES) {
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      it(`${role} · ${width}: no serious or critical violation on any page`, { timeout: 300_000 }, async () => {
        world ??= await buildWorld();
        const { page, context } = await newPage(browser, viewport);
        if (role !== "public") await loginAs(context, world.users[role]);
        const problems: string[] = [];
        const swept = new Set<string>();
        for (const path of [...pagePaths(), "/pagina-que-nao-existe"]) {
          const search = (await world.search[path]?.(role)) ?? "";
          await page.goto(`${path}${search}`);
          await settle(page);
          const landed = new URL(page.url());
          if (landed.pathname === path) (reached.get(path) ?? reached.set(path, new Set()).get(path)!).add(role);
          const key = `${landed.pathname}${landed.search}`;
          if (swept.has(key)) continue;
          swept.add(key);
          problems.push(...describeViolations(`${role} ${width} ${path}${landed.pathname === path ? "" : ` → ${landed.pathname}`}`, await axeViolations(page)));
        }
        await context.close();
        if (process.env.AXE_LOG) console.log(problems.join("\n"));
        expect(problems).toEqual([]);
      });
    }
  }

  it("every page was reached by some role", () => {
    const unreached = pagePaths().filter((p) => !REDIRECT_ONLY.includes(p) && !reached.has(p));
    expect(unreached, "pages no role reached: give them a search in buildWorld() or a role that can open them").toEqual([]);
  });
});
