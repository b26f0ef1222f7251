import { PRODUCT_NAME } from "@elo/shared";

const pad = (n: number) => String(n).padStart(2, "0");

/** "elo-escolar-dados-2025-03-14-093005.json": the product name and the local time of the export. */
export function exportFileName(now: Date): string {
  const slug = PRODUCT_NAME.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().replace(/\s+/g, "-");
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${slug}-dados-${stamp}.json`;
}

/** Saves a value as a pretty-printed JSON file through the browser's download. */
export function downloadJson(data: unknown, fileName: string) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
