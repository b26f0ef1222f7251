// Builds public/termos-de-uso-e-privacidade.pdf from legal/termos-de-uso-e-privacidade.md.
// The source uses a small Markdown subset: "# " titles, "## " sections, "- " list items and paragraphs.
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import PDFDocument from "pdfkit";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "legal/termos-de-uso-e-privacidade.md");
const target = join(root, "public/termos-de-uso-e-privacidade.pdf");

const BRAND = "#1c7ed6";
const TEXT = "#212529";
const MUTED = "#6c757d";

/** Splits the source into blocks: { kind: "title" | "section" | "item" | "paragraph", text }. */
export function parse(markdown) {
  const blocks = [];
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) flush();
    else if (line.startsWith("## ")) (flush(), blocks.push({ kind: "section", text: line.slice(3) }));
    else if (line.startsWith("# ")) (flush(), blocks.push({ kind: "title", text: line.slice(2) }));
    else if (line.startsWith("- ")) (flush(), blocks.push({ kind: "item", text: line.slice(2) }));
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

function render(blocks, out) {
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 72, bottom: 72, left: 64, right: 64 },
    bufferPages: true,
    info: { Title: "Termos de Uso e Política de Privacidade - Elo Escolar", Author: "Elo Escolar", Subject: "Termos de Uso e Política de Privacidade (LGPD)", Keywords: "termos, privacidade, LGPD" },
    lang: "pt-BR",
    pdfVersion: "1.7",
    tagged: true,
    displayTitle: true,
  });
  doc.pipe(createWriteStream(out));
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font("Helvetica-Bold").fontSize(11).fillColor(BRAND).text("ELO ESCOLAR", { characterSpacing: 2 });
  doc.moveDown(0.5);
  let first = true;
  for (const b of blocks) {
    if (b.kind === "title") {
      if (!first) doc.addPage();
      doc.font("Helvetica-Bold").fontSize(first ? 22 : 18).fillColor(TEXT).text(b.text, { width });
      doc.moveDown(0.3).moveTo(doc.page.margins.left, doc.y).lineTo(doc.page.margins.left + 80, doc.y).lineWidth(2).strokeColor(BRAND).stroke();
      doc.moveDown(0.8);
      first = false;
    } else if (b.kind === "section") {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 80) doc.addPage();
      doc.moveDown(0.6).font("Helvetica-Bold").fontSize(13).fillColor(BRAND).text(b.text, { width });
      doc.moveDown(0.3);
    } else if (b.kind === "item") {
      doc.font("Helvetica").fontSize(10.5).fillColor(TEXT).text(`•  ${b.text}`, { width, indent: 0, align: "left", lineGap: 2, paragraphGap: 3 });
    } else {
      doc.font("Helvetica").fontSize(10.5).fillColor(TEXT).text(b.text, { width, align: "justify", lineGap: 2, paragraphGap: 6 });
    }
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(8.5).fillColor(MUTED).text(`Elo Escolar · Termos de Uso e Política de Privacidade · versão 1.0 · página ${i + 1} de ${range.count}`, doc.page.margins.left, doc.page.height - 40, { width, align: "center" });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
}

mkdirSync(dirname(target), { recursive: true });
render(parse(readFileSync(source, "utf8")), target);
console.log(`terms PDF written to ${target}`);
