const count = new Intl.NumberFormat("pt-BR");
const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 });

/** 1.234 */
export const formatCount = (n: number) => count.format(n);
/** 45,5% from 0.455 */
export const formatShare = (ratio: number) => percent.format(ratio);
/** "16/03" from a week's Monday, yyyy-MM-dd. */
export const weekLabel = (isoDay: string) => `${isoDay.slice(8, 10)}/${isoDay.slice(5, 7)}`;
