import sharp from "sharp";

/**
 * A one-page A4 PDF with a bold title and lines of text, in the 14 standard fonts (no font files).
 * The demo parent's enrollment proof: small, valid, and opened by any PDF viewer. The server has
 * no PDF library among its runtime dependencies, and this is all the demo needs (docs/decisions/118).
 */
export function simplePdf(title: string, lines: string[]): Buffer {
  // WinAnsiEncoding agrees with Latin-1 for every Portuguese letter.
  const text = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const content = [
    "0.6 w 0.2 0.35 0.75 RG 56 56 483 730 re S",
    `BT /F1 18 Tf 72 740 Td ${text(title)} Tj ET`,
    ...lines.map((line, i) => `BT /F2 12 Tf 72 ${700 - i * 22} Td ${text(line)} Tj ET`),
  ].join("\n");
  const stream = Buffer.from(content, "latin1");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, "latin1"));
  });
  offsets.push(length);
  push(Buffer.concat([Buffer.from(`6 0 obj\n<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from("\nendstream\nendobj\n")]));
  const xref = [`xref\n0 ${offsets.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  push(Buffer.from(`${xref}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/** White emblems on a coloured tile, one per niche; shapes only, since a slim image has no fonts for SVG text. */
const EMBLEMS: Record<string, (color: string) => string> = {
  // An open book.
  "Ed. Básica": () => '<path d="M128 84 C104 70 72 68 52 74 V184 C72 178 104 180 128 194 Z M128 84 C152 70 184 68 204 74 V184 C184 178 152 180 128 194 Z" fill="white"/>',
  // A speech bubble.
  Idiomas: () => '<rect x="52" y="62" width="152" height="104" rx="24" fill="white"/><path d="M86 160 L78 204 L124 162 Z" fill="white"/>',
  // Waves.
  Clubes: () => '<g fill="none" stroke="white" stroke-width="16" stroke-linecap="round">' + [96, 136, 176].map((y) => `<path d="M48 ${y} q20 -22 40 0 t40 0 t40 0 t40 0"/>`).join("") + "</g>",
  // A robot's head.
  Tecnologia: (color) =>
    `<rect x="64" y="84" width="128" height="108" rx="20" fill="white"/><rect x="122" y="52" width="12" height="32" fill="white"/><circle cx="128" cy="48" r="12" fill="white"/><circle cx="104" cy="132" r="14" fill="${color}"/><circle cx="152" cy="132" r="14" fill="${color}"/>`,
  // A music note.
  Outros: () => '<rect x="138" y="56" width="14" height="118" fill="white"/><path d="M152 56 C176 68 192 84 188 112 C182 96 170 88 152 86 Z" fill="white"/><ellipse cx="120" cy="178" rx="32" ry="24" fill="white"/>',
};

/** A 256 px PNG logo for a demo school: its niche's emblem on the school's colour. */
export async function demoLogo(niche: string, color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" rx="48" fill="${color}"/>${(EMBLEMS[niche] ?? EMBLEMS.Outros!)(color)}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
