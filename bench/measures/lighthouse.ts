import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import lighthouse from "lighthouse";
import { freePort, startBareServer } from "../lib/processes";
import { median, round } from "../lib/stats";
import type { MeasureContext } from "./context";

/** Lighthouse runs per page and side (app, static twin), alternating: the issue asks for the median of 5. */
export const LIGHTHOUSE_RUNS = 5;

export interface LighthouseRun {
  performance: number;
  lcpMs: number;
  fcpMs: number;
  cls: number;
  tbtMs: number;
}

export interface LighthousePage {
  page: string;
  path: string;
  app: LighthouseRun[];
  twin: LighthouseRun[];
  /** Medians of the runs. */
  lcpRatio: number;
  appLcpMs: number;
  twinLcpMs: number;
  performance: number;
  twinPerformance: number;
  cls: number;
  tbtMs: number;
}

/**
 * Issue 26's first-visit figure: Lighthouse 12 (pinned 12.2.3) with its mobile defaults (simulated
 * slow 4G and a 4× slower CPU) on `/`, the largest city page and one of its school pages, each
 * against its static twin: the same HTML without its scripts (and their module preloads) and the
 * files it names (CSS, images) saved from the app and served by a plain static server with gzip
 * (bench/static-twin-server.mjs). The twin is what "as fast as a static page" means; the ratio of
 * the LCPs says what the server and the page's own script cost on top of it.
 */
export async function measureLighthouse(ctx: MeasureContext, pages: Array<{ page: string; path: string }>): Promise<LighthousePage[]> {
  const twinDir = path.join(ctx.workDir, "static-twin");
  mkdirSync(twinDir, { recursive: true });
  const files: Record<string, { file: string; type: string }> = {};
  for (const [i, p] of pages.entries()) Object.assign(files, await saveTwin(ctx.server.url, p.path, twinDir, `page-${i}`));
  const manifest = path.join(twinDir, "files.json");
  writeFileSync(manifest, JSON.stringify(files));
  const twin = await startBareServer("static-twin-server.mjs", { TWIN_FILES: manifest });
  const chrome = await launchChromium(twinDir);
  try {
    const results: LighthousePage[] = [];
    for (const p of pages) {
      const app: LighthouseRun[] = [];
      const static_: LighthouseRun[] = [];
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
        app.push(await audit(ctx.server.url + p.path, chrome.port, ctx.log));
        static_.push(await audit(twin.url + p.path, chrome.port, ctx.log));
      }
      const m = (runs: LighthouseRun[], key: keyof LighthouseRun) => median(runs.map((r) => r[key]));
      const result: LighthousePage = {
        ...p,
        app,
        twin: static_,
        lcpRatio: round(m(app, "lcpMs") / m(static_, "lcpMs"), 3),
        appLcpMs: Math.round(m(app, "lcpMs")),
        twinLcpMs: Math.round(m(static_, "lcpMs")),
        performance: m(app, "performance"),
        twinPerformance: m(static_, "performance"),
        cls: round(m(app, "cls"), 3),
        tbtMs: Math.round(m(app, "tbtMs")),
      };
      ctx.log(`    ${p.page} ${p.path}: LCP ${result.appLcpMs} ms vs twin ${result.twinLcpMs} ms (${result.lcpRatio}), performance ${result.performance} (twin ${result.twinPerformance}), CLS ${result.cls}, TBT ${result.tbtMs} ms`);
      results.push(result);
    }
    return results;
  } finally {
    chrome.stop();
    await twin.stop();
  }
}

/**
 * One Lighthouse run, performance only, mobile defaults. A run Lighthouse itself reports as broken
 * (`NO_NAVSTART`, `NO_FCP`: its trace missed the navigation, "please run again") is run once more,
 * logged, before the figure fails: it ended the whole full run of 2026-11-28 18:36 UTC.
 */
async function audit(url: string, port: number, log?: (line: string) => void): Promise<LighthouseRun> {
  try {
    return await auditOnce(url, port);
  } catch (error) {
    if (!(error instanceof LighthouseRuntimeError)) throw error;
    log?.(`    lighthouse ${url}: ${error.message}; running it again once`);
    return auditOnce(url, port);
  }
}

class LighthouseRuntimeError extends Error {}

async function auditOnce(url: string, port: number): Promise<LighthouseRun> {
  const result = await lighthouse(url, { port, onlyCategories: ["performance"], logLevel: "error", output: "json" });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`lighthouse ${url}: no result`);
  if (lhr.runtimeError) throw new LighthouseRuntimeError(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const num = (id: string) => {
    const v = lhr.audits[id]?.numericValue;
    if (typeof v !== "number") throw new Error(`lighthouse ${url}: no ${id}`);
    return v;
  };
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: num("largest-contentful-paint"),
    fcpMs: num("first-contentful-paint"),
    cls: num("cumulative-layout-shift"),
    tbtMs: num("total-blocking-time"),
  };
}

/**
 * Saves `pagePath` of the app as a static twin: its HTML without scripts and module preloads, and
 * every same-origin file the rest of the HTML names (stylesheets, icons, image preloads, images).
 */
async function saveTwin(origin: string, pagePath: string, dir: string, name: string): Promise<Record<string, { file: string; type: string }>> {
  const res = await fetch(origin + pagePath);
  if (res.status !== 200) throw new Error(`lighthouse: ${pagePath} answered ${res.status}`);
  // Scripts go (JSON-LD stays: it is data, not script), with the module preloads and the template
  // the landing pages keep their app's script tags in until it loads.
  const html = (await res.text())
    .replace(/<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script>\s*/g, "")
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, "")
    .replace(/<template id="app-scripts">[\s\S]*?<\/template>\s*/g, "");
  const files: Record<string, { file: string; type: string }> = {};
  const htmlFile = path.join(dir, `${name}.html`);
  writeFileSync(htmlFile, html);
  files[pagePath] = { file: htmlFile, type: "text/html; charset=utf-8" };
  const named = new Set([...html.matchAll(/\s(?:href|src)="(\/[^/"][^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")));
  for (const ref of named) {
    if (ref === pagePath) continue;
    const asset = await fetch(origin + ref);
    // Links to other pages answer HTML: only files are part of the twin.
    const type = asset.headers.get("content-type") ?? "application/octet-stream";
    if (asset.status !== 200 || type.startsWith("text/html")) continue;
    const file = path.join(dir, `${name}-${Object.keys(files).length}${path.extname(new URL(ref, origin).pathname)}`);
    writeFileSync(file, Buffer.from(await asset.arrayBuffer()));
    files[new URL(ref, origin).pathname] = { file, type };
  }
  return files;
}

/** Debian's Chromium, headless, with a DevTools port for Lighthouse (CHROMIUM_PATH overrides the path). */
async function launchChromium(workDir: string): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ["--headless=new", "--no-sandbox", "--disable-gpu", `--remote-debugging-port=${port}`, `--user-data-dir=${path.join(workDir, "chromium-profile")}`, "about:blank"], { stdio: "ignore" });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("lighthouse: Chromium did not open its DevTools port");
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, stop: () => child.kill("SIGKILL") };
}
