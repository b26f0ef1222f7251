import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { publicPagesMessages as m } from "@elo/shared";
import satori from "satori";
import sharp from "sharp";
import type { Storage } from "../storage/storage";

/** The preview's size: what WhatsApp, Facebook and X show large. */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

const require = createRequire(import.meta.url);
// The font ships in an npm package (@fontsource/inter), read once; nothing is downloaded at run time.
let fonts: Array<{ name: string; data: Buffer; weight: 400 | 700; style: "normal" }> | null = null;
const loadFonts = () =>
  (fonts ??= [400, 700].map((weight) => ({
    name: "Inter",
    data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
    weight: weight as 400 | 700,
    style: "normal" as const,
  })));

export interface PreviewData {
  title: string;
  subtitle: string;
  /** '30%' or null when nothing is on offer. */
  best: string | null;
  /** Key of the logo in the school_logos bucket (a stored logo only). */
  logoKey: string | null;
}

/** A short hash of what the image shows: its address changes when any of it changes (WhatsApp caches per address). */
export const previewVersion = (data: PreviewData) => createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 12).replace(/[-_]/g, "x");

async function logoDataUri(storage: Storage, key: string | null): Promise<string | null> {
  if (!key || /^https?:/i.test(key)) return null;
  const file = await storage.get("school_logos", key).catch(() => null);
  if (!file) return null;
  try {
    const png = await sharp(file.bytes).resize(200, 200, { fit: "contain", background: { r: 255, g: 255, b: 255, alpha: 1 } }).png().toBuffer();
    return `data:image/png;base64,${png.toString("base64")}`;
  } catch {
    return null;
  }
}

/** Renders the preview: satori (JSX to SVG, Inter from the npm package), then sharp to a 1200×630 JPEG. */
export async function renderPreview(storage: Storage, data: PreviewData): Promise<Buffer> {
  const logo = await logoDataUri(storage, data.logoKey);
  const svg = await satori(
    <div style={{ width: OG_WIDTH, height: OG_HEIGHT, display: "flex", flexDirection: "column", background: "linear-gradient(135deg, #e7f5ff 0%, #ffffff 60%)", fontFamily: "Inter" }}>
      <div style={{ display: "flex", alignItems: "center", gap: 40, margin: "64px 64px 0 64px" }}>
        {logo ? <img src={logo} width={200} height={200} style={{ borderRadius: 24, border: "2px solid #d0ebff" }} /> : null}
        <div style={{ display: "flex", flexDirection: "column", flex: 1 }}>
          <div style={{ fontSize: 64, fontWeight: 700, color: "#1a1b1e", lineHeight: 1.1 }}>{data.title}</div>
          <div style={{ fontSize: 36, color: "#495057", marginTop: 16 }}>{data.subtitle}</div>
        </div>
      </div>
      <div style={{ display: "flex", alignItems: "flex-end", justifyContent: "space-between", margin: "auto 64px 56px 64px" }}>
        {data.best ? (
          <div style={{ display: "flex", background: "#1864ab", color: "#ffffff", fontSize: 48, fontWeight: 700, borderRadius: 20, padding: "16px 32px" }}>
            {m.ogBest(data.best)}
          </div>
        ) : (
          <div style={{ display: "flex" }} />
        )}
        <div style={{ display: "flex", fontSize: 40, fontWeight: 700, color: "#1864ab" }}>{m.siteName}</div>
      </div>
    </div>,
    { width: OG_WIDTH, height: OG_HEIGHT, fonts: loadFonts() },
  );
  return sharp(Buffer.from(svg)).resize(OG_WIDTH, OG_HEIGHT).flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
}

/**
 * The preview of a page, made once per version and kept in the storage (disk or S3) under
 * `og/<name>-<version>.jpg` in the public school_logos bucket.
 */
export async function storedPreview(storage: Storage, name: string, data: PreviewData): Promise<Buffer> {
  const key = `og/${name}-${previewVersion(data)}.jpg`;
  const found = await storage.get("school_logos", key);
  if (found) return found.bytes;
  const jpeg = await renderPreview(storage, data);
  await storage.put("school_logos", key, jpeg, "image/jpeg");
  return jpeg;
}
