#!/usr/bin/env node
// A school's system receiving Elo Escolar's webhooks: verifies each delivery and prints its event.
//   ELO_WEBHOOK_SECRET=whsec_... PORT=4000 node examples/webhook-receiver.mjs
// Add http://localhost:4000/webhooks as an endpoint in Dados da escola › Integrações (webhooks)
// (in production the endpoint must be https; put this behind your HTTPS proxy), copy the secret
// shown once, and press 'Testar'. A delivery whose signature or timestamp does not check out is
// answered 400 and not printed; one already seen (a retry, 'Reenviar') is answered 200 and skipped.
import { createServer } from "node:http";
import { verifyWebhook } from "@elo/client";

const secret = process.env.ELO_WEBHOOK_SECRET;
if (!secret) {
  console.error("Defina ELO_WEBHOOK_SECRET com o segredo mostrado ao criar o endpoint.");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4000);
/** webhook-ids already handled (keep them in your database in a real integration). */
const seen = new Set();

/** One line per event, in the words of the school's office. @param {import("@elo/client").WebhookEvent} event */
function describe(event) {
  switch (event.type) {
    case "voucher.reserved":
    case "voucher.used":
    case "voucher.cancelled":
    case "voucher.expired":
    case "voucher.given_up":
      return `voucher ${event.data.voucherCode} (${event.data.studentName ?? "aluno sem nome"}, ${event.data.className}): ${event.data.status}`;
    case "waitlist.offered":
      return `vaga de ${event.data.className} oferecida à lista de espera (${event.data.waiting} aguardando)`;
    case "benefit.sold_out":
      return `benefício ${event.data.className} esgotado`;
    case "enrollment.verification_requested":
      return `comprovante de matrícula de ${event.data.studentName ?? "aluno sem nome"} aguardando confirmação`;
    case "ping":
      return "teste recebido";
  }
}

createServer((req, res) => {
  /** @type {Buffer[]} */
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    let event;
    try {
      event = verifyWebhook(secret, req.headers, body);
    } catch (error) {
      console.error(`recusado: ${error instanceof Error ? error.message : String(error)}`);
      res.writeHead(400).end();
      return;
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(`${event.type} ${event.id} ${describe(event)}`);
    }
    res.writeHead(200).end("ok");
  });
}).listen(port, () => console.log(`pronto em http://localhost:${port}/webhooks`));
