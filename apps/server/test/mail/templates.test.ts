import { describe, expect, it } from "vitest";
import { EMAIL_TEMPLATES, html, inlineImagesOf, passwordResetEmail, renderEmailPreviews, renderTemplate, voucherEmail } from "../../src/mail/templates";
import { readQr } from "../support/qr";

const env = { publicOrigin: "https://eloescolar.com.br" };

describe("e-mail templates", () => {
  it("escapes every interpolated value", () => {
    expect(html`<p>${'<script>alert("x")</script>'}</p>`.value).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>");
  });

  it("renders the recovery e-mail in pt-BR with the link in both bodies", () => {
    const url = `${env.publicOrigin}/reset-password?token=abc123`;
    const mail = renderTemplate(passwordResetEmail, { name: "Ana <b>", resetUrl: url }, env);
    expect(mail.subject).toBe("Redefinição de senha — Elo Escolar");
    expect(mail.html).toContain('<html lang="pt-BR">');
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain("Olá, Ana &lt;b&gt;!");
    expect(mail.html).not.toContain("<b>!");
    expect(mail.text).toContain(`Redefinir senha: ${url}`);
    expect(mail.text).toContain("Olá, Ana <b>!");
    expect(mail.text).toContain("1 hora");
  });

  it("never puts a non-http link in an href", () => {
    const mail = renderTemplate(passwordResetEmail, { name: null, resetUrl: "javascript:alert(1)" }, env);
    expect(mail.html).not.toContain('href="javascript:');
  });

  it("renders every registered template with its sample data, recovery first", async () => {
    const previews = await renderEmailPreviews(env);
    expect(previews).toHaveLength(EMAIL_TEMPLATES.length);
    expect(previews[0]!.kind).toBe("password-reset");
    expect(new Set(previews.map((p) => p.kind)).size).toBe(previews.length);
    for (const p of previews) {
      expect(p.subject.length).toBeGreaterThan(0);
      expect(p.html).toMatch(/^<!doctype html>/);
      expect(p.text).toContain("Elo Escolar");
    }
  });

  it("shows the voucher's QR code by cid: with its alt text, and the preview in place as a data URI", async () => {
    const data = voucherEmail.sample(env);
    const mail = renderTemplate(voucherEmail, data, env);
    expect(mail.html).toContain(`<img src="cid:voucher-qr@eloescolar" alt="QR code do voucher ${data.voucherCode}" width="180" height="180"`);
    expect(mail.text).not.toContain("QR code");
    const [image, ...more] = await inlineImagesOf("voucher", data, env);
    expect(more).toEqual([]);
    expect(image).toMatchObject({ cid: "voucher-qr@eloescolar", contentType: "image/png" });
    expect(await readQr(image!.content)).toBe(`https://eloescolar.com.br/painel-escola?voucher=${data.voucherCode}`);
    expect(await inlineImagesOf("password-reset", { name: null, resetUrl: "x" }, env)).toEqual([]);
    const preview = (await renderEmailPreviews(env)).find((p) => p.kind === "voucher")!;
    expect(preview.html).not.toContain("cid:");
    expect(preview.html).toContain(`<img src="data:image/png;base64,${image!.content.toString("base64")}"`);
  });
});
