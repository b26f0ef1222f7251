// The static twin of issue 26's Lighthouse figure: a page's HTML and CSS saved as files, served the
// way a static file server (Caddy, nginx) serves them: from memory, gzipped when the client accepts
// it, with a content type, an ETag and no per-request work. TWIN_FILES names a JSON file:
// { "/path": { "file": "/abs/file", "type": "text/html; charset=utf-8" }, ... }.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";

const files = new Map();
for (const [url, { file, type }] of Object.entries(JSON.parse(readFileSync(process.env.TWIN_FILES, "utf8")))) {
  const body = readFileSync(file);
  const text = /^(text\/|image\/svg|application\/(javascript|json|xml))/.test(type);
  files.set(url, { body, gzip: text ? gzipSync(body, { level: 9 }) : null, type, etag: `"${createHash("sha1").update(body).digest("hex")}"` });
}
const server = createServer((req, res) => {
  const f = files.get(new URL(req.url, "http://twin").pathname);
  if (!f) return res.writeHead(404).end();
  const gzip = f.gzip && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
  res.writeHead(200, { "content-type": f.type, etag: f.etag, "cache-control": "public, max-age=0, must-revalidate", vary: "accept-encoding", ...(gzip ? { "content-encoding": "gzip" } : {}) });
  res.end(gzip ? f.gzip : f.body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => process.send?.({ ready: server.address().port }));
