/** Minimal files whose real type `file-type` recognises from the first bytes. */
const PNG_HEADER = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

/** A PNG of `size` bytes (header then padding). */
export const pngBytes = (size = 256) => Buffer.concat([PNG_HEADER, Buffer.alloc(Math.max(0, size - PNG_HEADER.length))]);

/** A JPEG of `size` bytes: JFIF header then a start-of-frame declaring 3×2 pixels (uploads read the dimensions). */
const JPEG_HEAD = Buffer.from("ffd8ffe000104a46494600010100000100010000ffc0001108000200030301220002110103110100", "hex");
export const jpegBytes = (size = 256) => Buffer.concat([JPEG_HEAD, Buffer.alloc(Math.max(0, size - JPEG_HEAD.length))]);

/** A PNG whose header declares `width`×`height` (a decompression bomb when large): a few hundred bytes. */
export const pngDeclaring = (width: number, height: number, size = 256) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const head = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), ihdr]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length))]);
};

/** A small PDF. */
export const pdfBytes = () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** A multipart body with text fields first, then one file. */
export function uploadForm(bytes: Buffer, fileName: string, fields: Record<string, string> = {}, type = "application/octet-stream") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([bytes], { type }), fileName);
  return form;
}
