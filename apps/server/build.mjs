// Bundles the server into dist/main.js and the CLIs into dist/admin-create.js, dist/storage-copy.js, dist/backup.js, dist/restore.js and dist/incident.js (the Docker image
// prunes dev dependencies, tsx among them, so the CLIs must run on plain node): workspace packages
// (@elo/*) are compiled in, every other package stays an external import from node_modules.
// `node build.mjs --outfile <path> [--entry src/cli/x.ts]` writes only the server (or that one
// entry), elsewhere (tests that spawn the built server or run a built CLI build their own copy).
import { build } from "esbuild";

const at = process.argv.indexOf("--outfile");
const entry = process.argv.indexOf("--entry");
const target =
  at > 0
    ? { entryPoints: [entry > 0 ? process.argv[entry + 1] : "src/main.ts"], outfile: process.argv[at + 1] }
    : { entryPoints: { main: "src/main.ts", "admin-create": "src/cli/admin-create.ts", "storage-copy": "src/cli/storage-copy.ts", backup: "src/cli/backup.ts", restore: "src/cli/restore.ts", incident: "src/cli/incident.ts" }, outdir: "dist" };

await build({
  ...target,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
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
