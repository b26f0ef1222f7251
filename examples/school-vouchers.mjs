#!/usr/bin/env node
// School office: list the school's reserved vouchers, or confirm one presented at the desk.
//   node examples/school-vouchers.mjs                   lists reserved (unused, valid) vouchers
//   node examples/school-vouchers.mjs confirm 1234-ABCD marks that voucher as used
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
  if (command) throw new Error(`Comando desconhecido: ${command}. Use "confirm <código>" ou nada para listar.`);

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
