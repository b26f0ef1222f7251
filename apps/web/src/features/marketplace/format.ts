import { marketplaceMessages as m } from "@elo/shared";

const pct = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

/** '-30%' or '-12,5%'. */
export const percentOff = (value: number) => m.percentOff(pct.format(value));

/** '1 vaga disponível' / 'N vagas disponíveis'. */
export const slotsText = (n: number) => (n === 1 ? m.oneSlot : m.slots(n));
