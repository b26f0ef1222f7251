#!/usr/bin/env node
// School office: list the school's reserved vouchers, confirm one presented at the desk, or cancel one.
//   node examples/school-vouchers.mjs                   lists reserved (unused, valid) vouchers
//   node examples/school-vouchers.mjs confirm 1234-ABCD marks that voucher as used
//   node examples/school-vouchers.mjs cancel 1234-ABCD nao_matriculado
//                                                       cancels it (desistencia, nao_matriculado, dados_incorretos, outro);
//                                                       the slot returns and the parent gets an e-mail
//   node examples/school-vouchers.mjs waitlist          families waiting per benefit (demand more slots would serve)
// The token must belong to approved staff of the school.
import { formatDate } from "./lib/format.mjs";
import { clientFromEnv, run } from "./lib/cli.mjs";

run(async () => {
  const elo = clientFromEnv();
  const [command, code] = process.argv.slice(2);

  if (command === "confirm") {
    if (!code) throw new Error("Informe o código do voucher, por exemplo: confirm 1234-ABCD");
    const voucher = await elo.school.vouchers.confirm.mutate({ code });
    console.log(`Voucher ${voucher.voucherCode} confirmado: ${voucher.studentName ?? "aluno sem nome"}, ${voucher.className} (${voucher.discountPercentage}% de desconto).`);
    return;
  }
  if (command === "cancel") {
    // The server checks the reason against its list; a wrong one answers BAD_REQUEST.
    const reason = /** @type {import("@elo/client").EloInputs["school"]["vouchers"]["cancel"]["reason"]} */ (process.argv[4]);
    if (!code || !reason) throw new Error("Informe o código e o motivo, por exemplo: cancel 1234-ABCD nao_matriculado");
    const voucher = await elo.school.vouchers.cancel.mutate({ code, reason });
    console.log(`Voucher ${voucher.voucherCode} cancelado (${reason}); a vaga voltou para o benefício.`);
    return;
  }
  if (command === "waitlist") {
    const benefits = (await elo.school.waitlist.list.query()).filter((b) => b.waiting + b.offered > 0);
    if (benefits.length === 0) console.log("Nenhuma família em lista de espera.");
    for (const b of benefits) console.log(`${b.className}: ${b.waiting} na lista de espera, ${b.offered} vaga(s) oferecida(s) aguardando resposta`);
    return;
  }
  if (command) throw new Error(`Comando desconhecido: ${command}. Use "confirm <código>", "cancel <código> <motivo>", "waitlist" ou nada para listar.`);

  const vouchers = await elo.school.vouchers.list.query({ status: "reservado" });
  if (vouchers.length === 0) {
    console.log("Nenhum voucher reservado.");
    return;
  }
  console.log(`${vouchers.length} voucher(s) reservado(s):`);
  for (const v of vouchers) {
    console.log(`${v.voucherCode}  ${v.studentName ?? "-"}  ${v.className}  reservado em ${formatDate(v.claimedAt)}  válido até ${formatDate(v.validUntil)}`);
  }
});
