import { describe, expect, it } from "vitest";
import { claimButton, markSoldOut } from "../src/features/marketplace/format";

describe("marketplace card button (spec 1 §2)", () => {
  it("offers 'Aproveitar benefício' while slots remain", () => {
    expect(claimButton({ claimed: false, numberOfStudents: 3 })).toEqual({ label: "Aproveitar benefício", disabled: false });
  });

  it("disables it while another card's claim is running", () => {
    expect(claimButton({ claimed: false, numberOfStudents: 3 }, true)).toEqual({ label: "Aproveitar benefício", disabled: true });
  });

  it("shows disabled 'Esgotado' at 0 slots when not claimed", () => {
    expect(claimButton({ claimed: false, numberOfStudents: 0 })).toEqual({ label: "Esgotado", disabled: true });
  });

  it("shows disabled 'Desconto já aproveitado' once claimed, even sold out", () => {
    expect(claimButton({ claimed: true, numberOfStudents: 0 })).toEqual({ label: "Desconto já aproveitado", disabled: true });
    expect(claimButton({ claimed: true, numberOfStudents: 5 })).toEqual({ label: "Desconto já aproveitado", disabled: true });
  });

  it("says why it cannot be claimed yet: an unconfirmed e-mail, a benefit that needs a verified enrollment (issue 21)", () => {
    expect(claimButton({ claimed: false, numberOfStudents: 3 }, false, false)).toEqual({ label: "Confirme seu e-mail para aproveitar", disabled: true });
    const requiring = { claimed: false, numberOfStudents: 3, requiresVerifiedEnrollment: true };
    expect(claimButton(requiring, false, true, false)).toEqual({ label: "Requer matrícula verificada", disabled: true });
    expect(claimButton(requiring, false, true, true)).toEqual({ label: "Aproveitar benefício", disabled: false });
    expect(claimButton({ ...requiring, claimed: true }, false, true, false)).toEqual({ label: "Desconto já aproveitado", disabled: true });
  });
});

describe("a claim that found the benefit gone", () => {
  it("turns only that card to 'Esgotado'", () => {
    const list = { viewer: null, items: [{ discountId: "a", numberOfStudents: 2, claimed: false }, { discountId: "b", numberOfStudents: 1, claimed: false }] };
    const after = markSoldOut(list, "b")!;
    expect(after.items.map((i) => claimButton(i).label)).toEqual(["Aproveitar benefício", "Esgotado"]);
    expect(list.items[1]!.numberOfStudents).toBe(1);
    expect(markSoldOut(undefined, "b")).toBeUndefined();
  });
});
