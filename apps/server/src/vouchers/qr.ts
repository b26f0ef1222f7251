import QRCode from "qrcode";

/**
 * A voucher's QR code as a PNG, for the e-mail (decision 140): error correction M, a 4-module quiet
 * zone and 8 px per module, so a phone reads it from a screen or a print.
 */
export function voucherQrPng(address: string): Promise<Buffer> {
  return QRCode.toBuffer(address, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 8, color: { dark: "#000000", light: "#ffffff" } });
}
