import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addEnrollment, createDiscount, eligibleParent } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { createAdmin } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { createHarness, type Harness } from "../support/harness";

/**
 * The figures behind the charts of /home-instituicao and /admin-escolas, on a world whose every
 * voucher and school is listed here and counted by hand. The clock stands on Wednesday
 * 18/03/2026, 15:00 in Brasília (UTC-3, no daylight saving): the charts' twelve weeks run from
 * Monday 29/12/2025 to the week of Monday 16/03/2026.
 */

const NOW = new Date("2026-03-18T18:00:00Z");
const WEEKS = ["2025-12-29", "2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", "2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23", "2026-03-02", "2026-03-09", "2026-03-16"];
/** Long before the window: vouchers that only the all-time reciprocity counts. */
const LAST_YEAR = new Date("2025-06-02T15:00:00Z");

let h: Harness;
let staffA: string;
let admin: string;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(NOW);
  const a = await createSchool(h, { name: "Escola A", niche: "Idiomas", uf: "SP", plan: "silver" });
  const b = await createSchool(h, { name: "Escola B", niche: "Clubes", uf: "SP", plan: "gold" });
  const c = await createSchool(h, { name: "Escola C", niche: "Tecnologia", uf: "RJ", city: "Rio de Janeiro", neighborhood: "Copacabana" });
  await createSchool(h, { name: "Escola D", niche: "Outros", uf: "MG", city: "Belo Horizonte", neighborhood: "Savassi", plan: "bronze" });
  staffA = (await createStaff(h, a.id)).id;
  admin = (await createAdmin(h)).id;
  const [atA, atA2, atB, atC] = await Promise.all([createDiscount(h, a.id), createDiscount(h, a.id, { className: "Outra turma" }), createDiscount(h, b.id), createDiscount(h, c.id)]);

  // Families: P1 of A; P2 of B with another enrollment at A (so of A too); P3 of B; P4 of C.
  const p1 = (await eligibleParent(h, { schoolId: a.id })).id;
  const p2 = (await eligibleParent(h, { schoolId: b.id })).id;
  await addEnrollment(h, p2, a.id);
  const p3 = (await eligibleParent(h, { schoolId: b.id })).id;
  const p4 = (await eligibleParent(h, { schoolId: c.id })).id;

  // Weekly vouchers of A, by hand (BRT = UTC-3):
  // Mon 16/03 01:00 BRT: this week, reserved.
  await insertVoucher(h, atA, null, { claimedAt: new Date("2026-03-16T04:00:00Z") });
  // Sun 15/03 23:30 BRT (already Monday in UTC): the week of 09/03; used on Tue 17/03 (this week).
  await insertVoucher(h, atA, null, { claimedAt: new Date("2026-03-16T02:30:00Z"), status: "utilizado", redeemedAt: new Date("2026-03-17T13:00:00Z") });
  // Tue 10/03: the week of 09/03, expired: issued all the same.
  await insertVoucher(h, atA, null, { claimedAt: new Date("2026-03-10T15:00:00Z"), status: "expirado" });
  // Sun 28/12/2025, before the window; used on Fri 02/01 (the first week shown).
  await insertVoucher(h, atA, null, { claimedAt: new Date("2025-12-28T15:00:00Z"), status: "utilizado", redeemedAt: new Date("2026-01-02T15:00:00Z") });
  // Mon 05/01 00:30 BRT, used the same day.
  await insertVoucher(h, atA, null, { claimedAt: new Date("2026-01-05T03:30:00Z"), status: "utilizado", redeemedAt: new Date("2026-01-05T20:00:00Z") });
  // Sun 28/12/2025 23:59 BRT: a minute before the window opens; never counted.
  await insertVoucher(h, atA, null, { claimedAt: new Date("2025-12-29T02:59:00Z") });
  // B's voucher this week: the network's, not A's.
  await insertVoucher(h, atB, null, { claimedAt: new Date("2026-03-16T12:00:00Z") });

  // Reciprocity, all time (claimed last year, outside the weekly window):
  await insertVoucher(h, atB, p1, { claimedAt: LAST_YEAR }); // A's family elsewhere, reserved
  await insertVoucher(h, atC, p1, { claimedAt: LAST_YEAR, status: "utilizado", redeemedAt: LAST_YEAR }); // ... and used (P1 counted once)
  await insertVoucher(h, atC, p2, { claimedAt: LAST_YEAR }); // A's family (by enrollment) elsewhere, reserved
  await insertVoucher(h, atA2, p2, { claimedAt: LAST_YEAR, status: "utilizado", redeemedAt: LAST_YEAR }); // A's own family at A: neither
  await insertVoucher(h, atA, p3, { claimedAt: LAST_YEAR }); // another school's family here, reserved
  await insertVoucher(h, atA2, p3, { claimedAt: LAST_YEAR, status: "utilizado", redeemedAt: LAST_YEAR }); // ... and used (P3 once)
  await insertVoucher(h, atA, p4, { claimedAt: LAST_YEAR, status: "expirado" }); // another school's family here, reserved
  await insertVoucher(h, atC, p3, { claimedAt: LAST_YEAR }); // B's family at C: nothing to do with A
});
afterAll(() => h.close());

/** Twelve weeks of zeros, with the given weeks filled in. */
const expectedWeeks = (filled: Record<string, [reserved: number, used: number, reservedThenUsed: number]>) =>
  WEEKS.map((week) => {
    const [reserved, used, reservedThenUsed] = filled[week] ?? [0, 0, 0];
    return { week, reserved, used, reservedThenUsed };
  });

describe("the school's charts", () => {
  it("counts vouchers issued and used per Brasília week, and each week's conversion", async () => {
    const { weeks } = await (await h.caller(staffA)).school.charts();
    expect(weeks).toEqual(
      expectedWeeks({
        "2025-12-29": [0, 1, 0],
        "2026-01-05": [1, 1, 1],
        "2026-03-09": [2, 0, 1],
        "2026-03-16": [1, 1, 0],
      }),
    );
  });

  it("counts the give and take in families, each once", async () => {
    const { reciprocity } = await (await h.caller(staffA)).school.charts();
    expect(reciprocity).toEqual({ ownFamiliesElsewhere: { reserved: 2, used: 1 }, otherFamiliesHere: { reserved: 2, used: 1 } });
  });
});

describe("the admin's overview", () => {
  it("counts schools by plan and by UF, and the network's vouchers per week", async () => {
    const overview = await (await h.caller(admin)).admin.schools.overview();
    expect(overview.byPlan).toEqual([
      { plan: "gold", schools: 1 },
      { plan: "silver", schools: 1 },
      { plan: "bronze", schools: 1 },
      { plan: "none", schools: 1 },
    ]);
    expect(overview.byUf).toEqual([
      { uf: "SP", schools: 2 },
      { uf: "MG", schools: 1 },
      { uf: "RJ", schools: 1 },
    ]);
    expect(overview.weeks).toEqual(
      expectedWeeks({
        "2025-12-29": [0, 1, 0],
        "2026-01-05": [1, 1, 1],
        "2026-03-09": [2, 0, 1],
        "2026-03-16": [2, 1, 0],
      }),
    );
  });
});
