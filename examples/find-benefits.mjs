#!/usr/bin/env node
// Parents: search and filter the marketplace (the same filters, search and sort as /home).
//   node examples/find-benefits.mjs [busca] [--nicho Idiomas] [--onde bairro|cidade|rede] [--ate 300]
//        [--desconto 20] [--vagas] [--ordem destaque|desconto|mensalidade|perto|recentes]
// Example: node examples/find-benefits.mjs ingles --nicho Idiomas --onde bairro --ate 300 --ordem desconto
import { formatBRL } from "./lib/format.mjs";
import { clientFromEnv, run } from "./lib/cli.mjs";

/** @type {Record<string, "neighborhood" | "city" | "network">} */
const WHERE = { bairro: "neighborhood", cidade: "city", rede: "network" };
/** @type {Record<string, "default" | "discount" | "fee" | "scope" | "newest">} */
const SORT = { destaque: "default", desconto: "discount", mensalidade: "fee", perto: "scope", recentes: "newest" };
/** @param {string} text */
const fold = (text) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().trim();

/**
 * The command line as marketplace.list's filters (the server validates them and answers in Portuguese).
 * @param {string[]} argv
 */
function readArgs(argv) {
  /** @type {{ q?: string; category?: number; where?: any; maxFee?: number; minDiscount?: number; withSlots?: boolean; sort?: any }} */
  const filters = {};
  const words = [];
  let niche;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i] ?? "";
    if (arg === "--nicho") niche = value();
    else if (arg === "--onde") filters.where = WHERE[fold(value())] ?? "?";
    else if (arg === "--ate") filters.maxFee = Number(value().replace(",", "."));
    else if (arg === "--desconto") filters.minDiscount = Number(value().replace(",", "."));
    else if (arg === "--vagas") filters.withSlots = true;
    else if (arg === "--ordem") filters.sort = SORT[fold(value())] ?? "?";
    else words.push(arg);
  }
  if (words.length) filters.q = words.join(" ");
  return { filters, niche };
}

run(async () => {
  const elo = clientFromEnv();
  const { filters, niche } = readArgs(process.argv.slice(2));
  // The first page with the facet counts: they also name the niches, so --nicho can be a name.
  let first = await elo.marketplace.list.query({ ...filters, limit: 100, facets: true });
  if (niche) {
    const categories = first.facets?.categories ?? [];
    const category = categories.find((c) => fold(c.name) === fold(niche));
    if (!category) {
      console.error(`Nicho desconhecido: ${niche}. Nichos: ${categories.map((c) => c.name).join(", ")}.`);
      process.exitCode = 1;
      return;
    }
    filters.category = category.id;
    first = await elo.marketplace.list.query({ ...filters, limit: 100, facets: true });
  }
  const items = [...first.items];
  for (let cursor = first.nextCursor; cursor; ) {
    const page = await elo.marketplace.list.query({ ...filters, cursor, limit: 100 });
    items.push(...page.items);
    cursor = page.nextCursor;
  }

  const { facets } = first;
  if (!facets) throw new Error("a primeira página veio sem as contagens");
  const byNiche = facets.categories.filter((c) => c.count > 0).map((c) => `${c.name} (${c.count})`);
  if (byNiche.length) console.log(`Por nicho: ${byNiche.join(", ")}`);
  // "Minha cidade" counts the neighborhood's benefits too (decision 171).
  console.log(`Onde: meu bairro (${facets.where.neighborhood}), minha cidade (${facets.where.city}), toda a rede (${facets.where.network})`);
  console.log(`Mensalidade com desconto: ${facets.fees.map((f) => `até R$ ${f.max} (${f.count})`).join(", ")}`);
  console.log(`Desconto: ${facets.discounts.map((d) => `pelo menos ${d.min}% (${d.count})`).join(", ")}`);
  if (items.length === 0) {
    // What to loosen: the filter whose removal shows the most.
    const [best] = Object.entries(facets.without).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    console.log(best ? `Nenhum benefício com esses filtros. Sem o filtro '${best[0]}' aparecem ${best[1]}.` : "Nenhum benefício com esses filtros.");
    return;
  }
  console.log(`${items.length} benefício(s) encontrado(s):`);
  for (const b of items) {
    const slots = b.numberOfStudents === 1 ? "1 vaga disponível" : `${b.numberOfStudents} vagas disponíveis`;
    const state = b.claimed ? "  [já aproveitado]" : b.numberOfStudents === 0 ? "  [esgotado]" : "";
    console.log(`-${b.discountPercentage}%  ${b.className} — ${b.schoolName}: pague apenas ${formatBRL(b.discountedFee)} (depois ${formatBRL(b.monthlyFee)}), ${slots}${state}`);
  }
});
