// Bundles the server into dist/main.js: workspace packages (@elo/*) are compiled in,
// every other package stays an external import from node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      name: "external-node-modules",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@elo/") ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
