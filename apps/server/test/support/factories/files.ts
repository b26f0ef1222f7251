/** Minimal files whose real type `file-type` recognises from the first bytes. */
const PNG_HEADER = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

/** A PNG of `size` bytes (header then padding). */
export const pngBytes = (size = 256) => Buffer.concat([PNG_HEADER, Buffer.alloc(Math.max(0, size - PNG_HEADER.length))]);

/** A JPEG of `size` bytes. */
export const jpegBytes = (size = 256) => Buffer.concat([Buffer.from("ffd8ffe000104a46494600", "hex"), Buffer.alloc(Math.max(0, size - 11))]);

/** A small PDF. */
export const pdfBytes = () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** A multipart body with text fields first, then one file. */
export function uploadForm(bytes: Buffer, fileName: string, fields: Record<string, string> = {}, type = "application/octet-stream") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([bytes], { type }), fileName);
  return form;
}
