#!/usr/bin/env node
// Parents: the marketplace benefits available to you (the cards of /home), Gold schools first.
//   node examples/list-my-benefits.mjs
import { formatBRL } from "./lib/format.mjs";
import { clientFromEnv, run } from "./lib/cli.mjs";

run(async () => {
  const elo = clientFromEnv();
  // The list comes in pages (24 cards by default, up to 100): follow nextCursor to the end.
  const first = await elo.marketplace.list.query({ limit: 100 });
  const { viewer } = first;
  const items = [...first.items];
  for (let cursor = first.nextCursor; cursor; ) {
    const page = await elo.marketplace.list.query({ cursor, limit: 100 });
    items.push(...page.items);
    cursor = page.nextCursor;
  }

  if (viewer.kind === "parent" && !(viewer.profileCompleted && viewer.proofSubmitted)) {
    console.log("Aviso: complete seu cadastro e envie o comprovante de matrícula em /meus-dados para aproveitar benefícios.");
  }
  if (items.length === 0) {
    console.log("Nenhum desconto disponível no momento.");
    return;
  }
  console.log(`${items.length} benefício(s) disponível(is):`);
  for (const b of items) {
    const slots = b.numberOfStudents === 1 ? "1 vaga disponível" : `${b.numberOfStudents} vagas disponíveis`;
    const state = b.claimed ? "  [já aproveitado]" : b.numberOfStudents === 0 ? "  [esgotado]" : "";
    console.log(`-${b.discountPercentage}%  ${b.className} — ${b.schoolName}: pague apenas ${formatBRL(b.discountedFee)} (depois ${formatBRL(b.monthlyFee)}), ${slots}${state}`);
  }
});
