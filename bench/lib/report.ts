export interface Figure {
  name: string;
  value: number | string;
  goal: string;
  met: boolean;
  detail: string;
}

/** The figures side by side with their goals. */
export function printTable(figures: Figure[]) {
  const w = Math.max(...figures.map((f) => f.name.length));
  const line = "─".repeat(w + 52);
  console.log(`\n${line}\n${"figure".padEnd(w)}  ${"value".padStart(8)}  ${"goal".padEnd(8)}  met  detail\n${line}`);
  for (const f of figures) {
    console.log(`${f.name.padEnd(w)}  ${String(f.value).padStart(8)}  ${f.goal.padEnd(8)}  ${f.met ? "yes" : "NO "}  ${f.detail}`);
  }
  console.log(line);
}
