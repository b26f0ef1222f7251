import { schema } from "@elo/db";
import { schoolMessages, voucherDeskAddress } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDiscount } from "../support/factories/benefits";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { insertVoucher } from "../support/factories/vouchers";
import { trpcMutation, trpcQuery, type TrpcAnswer } from "../support/http-client";
import { withServer, type Harness, type TestServer } from "../support/harness";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

/**
 * The address a voucher's QR code carries (/painel-escola?voucher=CODE, decision 140) is read by any
 * phone that scans it. Through a listening server, with real cookies: only the voucher school's
 * approved staff learn anything about the family; everyone else gets a refusal that names nobody.
 */
describe("the voucher's desk address, opened by anyone", () => {
  it("shows the family to the school's approved staff only; visitors, parents, another school's staff and pending staff learn nothing", async () => {
    const school = await createSchool(h, { plan: "gold" });
    const other = await createSchool(h, { plan: "gold" });
    const benefit = await createDiscount(h, school.id, { className: `Turma ${Math.random().toString(36).slice(2, 7)}` });
    const family = { fullName: "Rosana Quintela Albuquerque", studentName: "Otávio Quintela Albuquerque", phone: "11987654321" };
    const holder = await createUser(h, { profile: family });
    const voucher = await insertVoucher(h, benefit, holder.id);
    const secrets = [family.fullName, family.studentName, family.phone, holder.email, "Quintela"];
    const reveals = (answer: TrpcAnswer) => secrets.filter((s) => JSON.stringify(answer.body).includes(s));

    // The address itself: the web app's page (when a build is there), the same for everyone, naming nobody.
    const page = await fetch(`${server.url}${new URL(voucherDeskAddress(h.config.publicOrigin, voucher.voucherCode)).pathname}?voucher=${voucher.voucherCode}`);
    const html = await page.text();
    for (const s of secrets) expect(html).not.toContain(s);

    // The school's approved staff: the family is shown (so the checks below can fail).
    const own = await trpcQuery(server, "school.vouchers.lookup", { code: voucher.voucherCode }, await sessionCookie(h, (await createStaff(h, school.id)).id));
    expect(own.status).toBe(200);
    expect(reveals(own)).toEqual([family.fullName, family.studentName, "Quintela"]);

    const actors: Array<[string, string | undefined, number, string]> = [
      ["visitor", undefined, 401, ""],
      ["the voucher's own parent", await sessionCookie(h, holder.id), 403, ""],
      ["another parent", await sessionCookie(h, (await createUser(h)).id), 403, ""],
      ["another school's staff", await sessionCookie(h, (await createStaff(h, other.id)).id), 403, schoolMessages.voucherOtherSchool],
      ["the school's pending staff", await sessionCookie(h, (await createStaff(h, school.id, "pending")).id), 403, "aguardando aprovação"],
      ["the school's rejected staff", await sessionCookie(h, (await createStaff(h, school.id, "rejected")).id), 403, ""],
    ];
    // The code as the QR carries it, and as a hand might type it.
    const variants = [voucher.voucherCode, voucher.voucherCode.toLowerCase(), voucher.voucherCode.replace("-", ""), ` ${voucher.voucherCode} `];
    for (const [who, cookie, status, message] of actors) {
      for (const code of variants) {
        const answer = await trpcQuery(server, "school.vouchers.lookup", { code }, cookie);
        expect(answer.status, `${who} ${code}`).toBe(status);
        expect(reveals(answer), `${who} ${code}`).toEqual([]);
        if (message) expect(JSON.stringify(answer.body.error), who).toContain(message);
      }
      // Nor can they act on it.
      for (const [path, input] of [["school.vouchers.confirm", { code: voucher.voucherCode }], ["school.vouchers.cancel", { code: voucher.voucherCode, reason: "outro" }]] as const) {
        const answer = await trpcMutation(server, path, input, cookie);
        expect(answer.status, `${who} ${path}`).toBe(status);
        expect(reveals(answer)).toEqual([]);
      }
    }
    const [stored] = await h.db.select({ status: schema.discountTransactions.status }).from(schema.discountTransactions).where(eq(schema.discountTransactions.id, voucher.id));
    expect(stored!.status).toBe("reservado");
  });
});
