import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const routeTreeFile = fileURLToPath(new URL("../../src/routeTree.gen.ts", import.meta.url));

/**
 * Every page path of the web app, read from the route tree TanStack Router generates from
 * src/routes (the build writes it), so a new page is in every sweep that uses this at once.
 */
export function pagePaths(): string[] {
  const text = readFileSync(routeTreeFile, "utf8");
  const block = /export interface FileRoutesByFullPath \{([^}]*)\}/.exec(text);
  if (!block) throw new Error(`no FileRoutesByFullPath in ${routeTreeFile}: run the web build (tsr generate) first`);
  return [...block[1]!.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]!).sort();
}
