import { voucherQrMessages as qr } from "@elo/shared";
import { Skeleton } from "@mantine/core";
import { useEffect, useState } from "react";

/**
 * The voucher as a QR code of its desk address (decision 140). `qrcode` is imported here, when the
 * first code is drawn, so it stays out of every page's first load. An SVG (sharp at any zoom, and on
 * paper) in an `img`, named by its alt text; the code itself stays printed next to it.
 */
export function VoucherQr({ address, code, size }: { address: string; code: string; size: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc(null);
    import("qrcode")
      .then(({ default: QRCode }) => QRCode.toString(address, { type: "svg", errorCorrectionLevel: "M", margin: 4 }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [address]);
  // Without the picture the printed code is still there to type.
  if (failed) return null;
  if (!src) return <Skeleton w={size} h={size} radius={0} aria-hidden style={{ flexShrink: 0 }} />;
  return <img src={src} alt={qr.alt(code)} width={size} height={size} data-testid="voucher-qr" data-address={address} style={{ display: "block", flexShrink: 0, background: "#fff" }} />;
}
