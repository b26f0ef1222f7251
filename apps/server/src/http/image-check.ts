import { LIMITS, uploadMessages, type Toast } from "@elo/shared";
import { imageSize } from "image-size";
import sharp, { type Sharp } from "sharp";

// Kept apart from uploads.ts (Fastify types): the admin logo procedure uses it and the router's
// types are compiled by packages/client without the Fastify plugins' augmentations.

/** Markup or script openers that have no business inside an image (an image/HTML polyglot). */
const MARKUP = /<(?:script|html|svg|iframe|body|object|embed|!doctype)[\s>/]|<\?php/i;

/**
 * What is wrong with an image's bytes, if anything: dimensions unreadable (magic bytes followed by
 * anything else is no image), more than LIMITS.imageMaxPixels (a decompression bomb declares
 * 50000×50000 in a few bytes and explodes in whoever decodes it: browsers, thumbnailers), or markup
 * hidden in it (an image/HTML polyglot). See decision 096.
 */
export function imageProblem(bytes: Buffer): "not_an_image" | "too_many_pixels" | null {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return "not_an_image";
  }
  if (!size.width || !size.height) return "not_an_image";
  if (size.width * size.height > LIMITS.imageMaxPixels) return "too_many_pixels";
  if (MARKUP.test(bytes.toString("latin1"))) return "not_an_image";
  return null;
}

export const tooManyPixels: Toast = { title: uploadMessages.imageTooManyPixelsTitle, description: uploadMessages.imageTooManyPixelsDescription };

// Every upload is a different image: libvips' operation cache would only hold decoded pixels in memory.
sharp.cache(false);

/** The output of each image type we accept, re-encoded in its own format. */
const ENCODE: Record<string, (image: Sharp) => Sharp> = {
  "image/jpeg": (image) => image.jpeg({ quality: 90 }),
  "image/png": (image) => image.png(),
  "image/webp": (image) => image.webp({ quality: 90 }),
  "image/gif": (image) => image.gif(),
};

/**
 * The image decoded and re-encoded in its own format with its pixels only (decision 110): EXIF (a
 * phone photo's GPS position, camera and time), XMP, comments, text chunks and any bytes hidden
 * around the pixels (polyglots) are gone; the EXIF orientation is applied to the pixels first, so
 * the picture stays upright. Animated images keep their first frame. Null when the bytes do not
 * decode as an image of that type.
 */
export async function reencodeImage(bytes: Buffer, mime: string): Promise<Buffer | null> {
  const encode = ENCODE[mime];
  if (!encode) return null;
  try {
    return await encode(sharp(bytes, { limitInputPixels: LIMITS.imageMaxPixels, failOn: "error" }).rotate()).toBuffer();
  } catch {
    return null;
  }
}
