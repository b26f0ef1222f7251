// Writes .br and .gz next to every text asset of the build, so the server sends compressed files
// without compressing per request (@fastify/static `preCompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "../dist");
const TEXT = /\.(js|css|html|svg|json|txt)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== ".vite") walk(file);
    } else if (TEXT.test(name) && statSync(file).size >= 1024) {
      const data = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}
walk(dist);
