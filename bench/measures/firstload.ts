import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../lib/processes";
import { round } from "../lib/stats";

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export const FIRST_LOAD_BUDGET_KB = 170;

/**
 * The routes a visit starts on (the landing page, the login, the signed-in home) and the route files
 * each renders through (root layout, pathless layouts, the page). The bench reports them and
 * apps/web/e2e/bundle.e2e.test.ts fails when one is over the budget.
 */
export const FIRST_LOAD_ROUTES: Record<string, string[]> = {
  "/": ["src/routes/__root.tsx", "src/routes/index.tsx"],
  "/login": ["src/routes/__root.tsx", "src/routes/login.tsx"],
  "/home": ["src/routes/__root.tsx", "src/routes/_auth.tsx", "src/routes/_auth/home.tsx"],
};

/**
 * Figure 5: gzipped JavaScript a first visit needs, from the Vite manifest: the entry and its static
 * imports, plus each route's split chunks (what the router loads before it renders) and their static
 * imports. Gzip level 9, as the build pre-compresses.
 */
export function measureFirstLoad(distDir = path.join(ROOT, "apps/web/dist")) {
  const manifestPath = path.join(distDir, ".vite/manifest.json");
  if (!existsSync(manifestPath)) throw new Error(`no Vite manifest at ${manifestPath}: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const gz = new Map<string, number>();
  const gzipKb = (file: string) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length / 1024);
    return gz.get(file)!;
  };
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const imp of manifest[key]!.imports ?? []) visit(imp);
    };
    keys.forEach(visit);
    return seen;
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error("the manifest has no entry");
  const routes = Object.fromEntries(
    Object.entries(FIRST_LOAD_ROUTES).map(([route, files]) => {
      const routeChunks = Object.keys(manifest).filter((k) => files.some((f) => k === f || k.startsWith(`${f}?`)));
      const keys = closure([entry, ...routeChunks]);
      const js = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith(".js"));
      const kb = js.reduce((a, f) => a + gzipKb(f), 0);
      return [route, { gzipKb: round(kb, 1), ratio: round(kb / FIRST_LOAD_BUDGET_KB, 3), files: js.length }];
    }),
  );
  return { budgetKb: FIRST_LOAD_BUDGET_KB, entryKb: round([...closure([entry])].map((k) => manifest[k]!.file).filter((f) => f.endsWith(".js")).reduce((a, f) => a + gzipKb(f), 0), 1), routes };
}
