import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { launchBrowser } from "./browser";

/**
 * Writes a picture as a Y4M video of one frame (grey 4:2:0: luma from the picture, neutral chroma),
 * the format Chromium's fake camera plays in a loop. Width and height must be even.
 */
export async function y4mOfPicture(picture: Buffer, file: string, width = 800, height = 600) {
  const luma = await sharp(picture).flatten({ background: "#ffffff" }).resize(width, height, { fit: "contain", background: "#ffffff" }).greyscale().extractChannel(0).raw().toBuffer();
  if (luma.length !== width * height) throw new Error(`expected ${width * height} luma bytes, got ${luma.length}`);
  const chroma = Buffer.alloc(width * height / 2, 128);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), luma, chroma]));
}

/**
 * A Chromium whose camera films `picture` (a screenshot, a printed QR code): the fake device plays it
 * as a video. With `grantCamera` the permission prompt is accepted; without it, headless Chromium
 * dismisses the prompt, as a person refusing would.
 */
export async function browserFilming(picture: Buffer, { grantCamera = true } = {}): Promise<Browser> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "elo-camera-")), "camera.y4m");
  await y4mOfPicture(picture, file);
  return launchBrowser(["--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${file}`, ...(grantCamera ? ["--use-fake-ui-for-media-stream"] : [])]);
}

/** Keeps every stream the page's getUserMedia hands out, so a scenario can check they were stopped. */
export function recordCameraStreams(page: Page) {
  return page.addInitScript(`(() => {
    const streams = (window.__cameraStreams = []);
    const md = navigator.mediaDevices;
    if (!md || !md.getUserMedia) return;
    const original = md.getUserMedia.bind(md);
    md.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  })()`);
}

/** How many camera tracks the page opened, and how many are still live. */
export function cameraTracks(page: Page): Promise<{ opened: number; live: number }> {
  return page.evaluate<{ opened: number; live: number }>(`(() => {
    const tracks = (window.__cameraStreams || []).flatMap((s) => s.getTracks());
    return { opened: tracks.length, live: tracks.filter((t) => t.readyState === "live").length };
  })()`);
}
