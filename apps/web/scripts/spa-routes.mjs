// Writes dist/spa-routes.json: every page path of the web app, read from the route tree TanStack
// Router generated from src/routes. The server answers 200 with index.html on these paths only and a
// real 404 page elsewhere (docs/decisions/160).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const tree = readFileSync(fileURLToPath(new URL("../src/routeTree.gen.ts", import.meta.url)), "utf8");
const block = /export interface FileRoutesByFullPath \{([^}]*)\}/.exec(tree);
if (!block) throw new Error("spa-routes: no FileRoutesByFullPath in src/routeTree.gen.ts (run tsr generate first)");
const paths = [...block[1].matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]).sort();
if (paths.some((p) => p.includes("$"))) throw new Error(`spa-routes: a route with a parameter needs a pattern here: ${paths.join(", ")}`);
writeFileSync(fileURLToPath(new URL("../dist/spa-routes.json", import.meta.url)), JSON.stringify(paths) + "\n");
