import { voucherDeskAddress } from "@elo/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketWorld } from "../support/factories/benefits";
import { createHarness, type Harness } from "../support/harness";
import { readQr } from "../support/qr";
import { startSmtpServer } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let h: Harness;
beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await createHarness({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

describe("the voucher e-mail's QR code (decision 140)", () => {
  it("arrives as an inline PNG the HTML shows by cid:, encoding the desk's address with the voucher code", async () => {
    const { parent, discount } = await marketWorld(h);
    const before = smtp.received.length;
    const { voucherCode } = await (await h.caller(parent.id)).claim.create({ discountId: discount.id });
    const [mail] = (await smtp.waitFor(before + 1, 5000)).slice(before).filter((r) => r.to.includes(parent.email));
    expect(mail).toBeDefined();

    const [picture, ...others] = mail!.parsed.attachments;
    expect(others).toEqual([]);
    expect(picture).toMatchObject({ contentType: "image/png", contentDisposition: "inline", cid: "voucher-qr@eloescolar", related: true, filename: `voucher-${voucherCode}.png` });
    expect(await readQr(picture!.content)).toBe(voucherDeskAddress(h.config.publicOrigin, voucherCode));
    expect(voucherDeskAddress(h.config.publicOrigin, voucherCode)).toBe(`${h.config.publicOrigin}/painel-escola?voucher=${voucherCode}`);

    // The HTML as sent refers to it by cid: (mailparser swaps the link for the picture's bytes), with its alt text.
    expect(mail!.html).toMatch(new RegExp(`<img src="data:image/png;base64,[^"]+" alt="QR code do voucher ${voucherCode}"`));
    // The plain-text version keeps the code.
    expect(mail!.text).toContain(voucherCode);
  });
});
