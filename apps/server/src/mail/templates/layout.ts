import { PRODUCT_NAME } from "@elo/shared";
import { html, safeUrl, type SafeHtml } from "./html";

/** What a template produces: subject, HTML and plain-text bodies. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Values every template may use: the public address of the site (for links). */
export interface EmailEnv {
  publicOrigin: string;
}

/** One block of the message: a paragraph, a call-to-action button, or label/value details. */
export type EmailBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "button"; label: string; url: string }
  | { kind: "details"; rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { kind: "note"; text: string }
  /** An image attached to the message (`cid:`), shown `size` px square and centred, with a caption under it. */
  | { kind: "image"; cid: string; alt: string; size: number; caption: string };

export interface EmailContent {
  subject: string;
  /** Short line shown by mail clients next to the subject. */
  preheader: string;
  heading: string;
  blocks: EmailBlock[];
}

const BRAND = "#1c7ed6";
const FOOTER = `Você recebeu este e-mail porque usa o ${PRODUCT_NAME}. Por favor, não responda a esta mensagem.`;

function blockHtml(block: EmailBlock): SafeHtml {
  switch (block.kind) {
    case "paragraph":
      return html`<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#212529">${block.text}</p>`;
    case "note":
      return html`<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:#6c757d">${block.text}</p>`;
    case "button":
      return html`<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 24px"><tr><td style="border-radius:8px;background:${BRAND}"><a href="${safeUrl(block.url)}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px">${block.label}</a></td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#6c757d">Se o botão não funcionar, copie e cole este endereço no navegador:<br><a href="${safeUrl(block.url)}" style="color:${BRAND};word-break:break-all">${block.url}</a></p>`;
    case "image":
      return html`<p style="margin:0 0 8px;text-align:center"><img src="cid:${block.cid}" alt="${block.alt}" width="${block.size}" height="${block.size}" style="display:inline-block;width:${block.size}px;height:${block.size}px;border:0"></p>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#6c757d;text-align:center">${block.caption}</p>`;
    case "details":
      return html`<table role="presentation" cellspacing="0" cellpadding="0" style="width:100%;margin:0 0 16px;border-collapse:collapse">${block.rows.map(
        ([label, value]) =>
          html`<tr><td style="padding:6px 12px 6px 0;font-size:14px;color:#6c757d;vertical-align:top;white-space:nowrap">${label}</td><td style="padding:6px 0;font-size:14px;color:#212529;white-space:pre-line">${value}</td></tr>`,
      )}</table>`;
  }
}

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case "paragraph":
    case "note":
      return block.text;
    case "image":
      // The plain-text version has no picture to caption: the code is in the details.
      return "";
    case "button":
      return `${block.label}: ${block.url}`;
    case "details":
      return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
  }
}

/** Wraps a message's content in the shared pt-BR layout, as HTML and as plain text. */
export function renderEmail(content: EmailContent, env: EmailEnv): RenderedEmail {
  const body = html`<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${content.subject}</title></head>
<body style="margin:0;padding:0;background:#f1f3f5;font-family:Arial,Helvetica,sans-serif">
<span style="display:none;max-height:0;overflow:hidden;opacity:0">${content.preheader}</span>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f1f3f5;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:${BRAND};padding:20px 24px"><a href="${safeUrl(env.publicOrigin)}" style="font-size:22px;font-weight:700;color:#ffffff;text-decoration:none">${PRODUCT_NAME}</a></td></tr>
<tr><td style="padding:28px 24px 12px">
<h1 style="margin:0 0 20px;font-size:22px;line-height:30px;color:#212529">${content.heading}</h1>
${content.blocks.map(blockHtml)}
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid #e9ecef;font-size:12px;line-height:18px;color:#868e96">${FOOTER}<br>© 2025 ${PRODUCT_NAME}</td></tr>
</table>
</td></tr></table>
</body>
</html>`;
  const text = [content.heading, "", ...content.blocks.map(blockText).filter(Boolean).flatMap((t) => [t, ""]), "—", FOOTER, `${PRODUCT_NAME} · ${env.publicOrigin}`].join("\n");
  return { subject: content.subject, html: body.value, text };
}
