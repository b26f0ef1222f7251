import { crc32 } from "node:zlib";

// Uploaded images are decoded and re-encoded (decision 110), so the files that must be accepted are
// real images: a 1×1 PNG and a 3×2 JPEG, padded to any size with segments every decoder skips.

/** A real 1×1 PNG. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADUlEQVQI12NgaPj/HwAEggJ/HN01FgAAAABJRU5ErkJggg==", "base64");
/** A real 3×2 baseline JPEG. */
const JPEG_3X2 = Buffer.from(
  "/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIADg9//2Q==",
  "base64",
);

/** One PNG chunk: length, type, data, CRC of type and data. */
export function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `png` with `chunks` inserted before its IEND chunk (the last 12 bytes). */
export const withPngChunks = (png: Buffer, ...chunks: Buffer[]) => Buffer.concat([png.subarray(0, -12), ...chunks, png.subarray(-12)]);

/** A real PNG of `size` bytes (at least 103): a 1×1 image padded with a private ancillary chunk. */
export const pngBytes = (size = 256) => withPngChunks(PNG_1X1, pngChunk("paDd", Buffer.alloc(Math.max(0, size - PNG_1X1.length - 12))));

/** `jpeg` with `segments` (each marker, length and data) right after its start-of-image marker. */
export const withJpegSegments = (jpeg: Buffer, ...segments: Buffer[]) => Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);

/** One JPEG segment: marker 0xFF `code`, then its length (which counts itself) and `data`. */
export function jpegSegment(code: number, data: Buffer) {
  const head = Buffer.from([0xff, code, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** A real 3×2 JPEG of `size` bytes (at least 268): padded with comment segments. */
export function jpegBytes(size = 268) {
  const segments: Buffer[] = [];
  let missing = size - JPEG_3X2.length;
  while (missing > 0) {
    const data = Math.min(65_533, Math.max(0, missing - 4));
    segments.push(jpegSegment(0xfe, Buffer.alloc(data, 0x20)));
    missing -= data + 4;
  }
  return withJpegSegments(JPEG_3X2, ...segments);
}

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

/** Degrees, minutes and seconds as three TIFF rationals (seconds to the hundredth). */
function dms(value: number) {
  const abs = Math.abs(value);
  const deg = Math.floor(abs);
  const min = Math.floor((abs - deg) * 60);
  const sec = Math.round(((abs - deg) * 60 - min) * 60 * 100);
  const out = Buffer.alloc(24);
  [deg, 1, min, 1, sec, 100].forEach((n, i) => out.writeUInt32LE(n, i * 4));
  return out;
}

/**
 * An EXIF APP1 segment as a phone camera writes it: Orientation in IFD0 and a GPS IFD with the
 * latitude and longitude where the photo was taken (little-endian TIFF).
 */
export function exifSegment(opts: { orientation: number; latitude: number; longitude: number }) {
  const entry = (tag: number, type: number, count: number, value: Buffer) => {
    const e = Buffer.alloc(12);
    e.writeUInt16LE(tag, 0);
    e.writeUInt16LE(type, 2);
    e.writeUInt32LE(count, 4);
    value.copy(e, 8);
    return e;
  };
  const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8, 0, 0]);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const ifd = (entries: Buffer[]) => Buffer.concat([Buffer.from([entries.length, 0]), ...entries, u32(0)]);
  const IFD0_AT = 8;
  const GPS_AT = IFD0_AT + 2 + 2 * 12 + 4;
  const DATA_AT = GPS_AT + 2 + 4 * 12 + 4;
  const ifd0 = ifd([entry(0x0112, 3, 1, u16(opts.orientation)), entry(0x8825, 4, 1, u32(GPS_AT))]);
  const gps = ifd([
    entry(0x0001, 2, 2, Buffer.from(opts.latitude < 0 ? "S\0" : "N\0")),
    entry(0x0002, 5, 3, u32(DATA_AT)),
    entry(0x0003, 2, 2, Buffer.from(opts.longitude < 0 ? "W\0" : "E\0")),
    entry(0x0004, 5, 3, u32(DATA_AT + 24)),
  ]);
  const tiff = Buffer.concat([Buffer.from("II*\0", "latin1"), u32(IFD0_AT), ifd0, gps, dms(opts.latitude), dms(opts.longitude)]);
  return jpegSegment(0xe1, Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]));
}
