// Bundles the server into dist/main.js: workspace packages (@elo/*) are compiled in,
// every other package stays an external import from node_modules.
// `node build.mjs --outfile <path>` writes elsewhere (tests that spawn the built server build their own copy).
import { build } from "esbuild";

const at = process.argv.indexOf("--outfile");
const outfile = at > 0 ? process.argv[at + 1] : "dist/main.js";

await build({
  entryPoints: ["src/main.ts"],
  outfile,
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
