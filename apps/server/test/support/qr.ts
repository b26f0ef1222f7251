import { BinaryBitmap, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from "@zxing/library";
import sharp from "sharp";

/** The text of the QR code in a picture (PNG, JPEG...), read by zxing as a phone's reader would. */
export async function readQr(picture: Buffer): Promise<string> {
  const { data, info } = await sharp(picture).flatten({ background: "#ffffff" }).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const luminance = new RGBLuminanceSource(new Uint8ClampedArray(data), info.width, info.height);
  return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(luminance))).getText();
}
