import { get } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { withServer, type TestServer } from "../support/harness";

/** A stand-in for the built web app with the landing pages its build renders (apps/web/scripts/prerender.mjs). */
const webDist = mkdtempSync(path.join(tmpdir(), "elo-web-"));
const page = (text: string) =>
  `<!doctype html><html lang="pt-BR"><head><link rel="canonical" href="__PUBLIC_ORIGIN__/x" /></head><body><div id="root" data-prerendered><h1>${text}</h1></div></body></html>`;
writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>Elo Escolar SPA</title>");
writeFileSync(path.join(webDist, "spa-routes.json"), JSON.stringify(["/", "/para-escolas", "/home"]));
mkdirSync(path.join(webDist, "prerendered"));
writeFileSync(path.join(webDist, "prerendered", "index.html"), page("Pais rendered"));
writeFileSync(path.join(webDist, "prerendered", "para-escolas.html"), page("Escolas rendered"));
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

let server: TestServer;
withServer((s) => ({ server } = s), { env: { WEB_DIST: webDist, PUBLIC_URL: "https://rede.example.com.br" } });

describe("the landing pages rendered by the build (decision 163)", () => {
  it("serves / and /para-escolas as rendered, with the public origin filled in, revalidated by ETag", async () => {
    for (const [p, text] of [["/", "Pais rendered"], ["/para-escolas", "Escolas rendered"], ["/?utm_source=whatsapp", "Pais rendered"]] as const) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain(`<h1>${text}</h1>`);
      expect(html).toContain('href="https://rede.example.com.br/x"');
      expect(html).not.toContain("__PUBLIC_ORIGIN__");
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"/);
      expect((await fetch(server.url + p, { headers: { "if-none-match": etag } })).status).toBe(304);
    }
    // The compressed bytes as sent (fetch would inflate them itself).
    const gz = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      get(server.url + "/", { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toContain("<h1>Pais rendered</h1>");
  });

  it("does not serve the files themselves (placeholders unfilled), and the app's other routes keep the shell", async () => {
    for (const p of ["/prerendered/index.html", "/prerendered/para-escolas.html", "/PRERENDERED/index.html", "/prerendered/%69ndex.html"]) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(404);
      expect(await res.text()).not.toContain("__PUBLIC_ORIGIN__");
    }
    const home = await fetch(server.url + "/home");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Elo Escolar SPA");
  });
});
