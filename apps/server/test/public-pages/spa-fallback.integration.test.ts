import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withServer, type Harness, type TestServer } from "../support/harness";

/** A stand-in for the built web app with the route list its build writes (apps/web/scripts/spa-routes.mjs). */
const webDist = mkdtempSync(path.join(tmpdir(), "elo-web-"));
writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>Elo Escolar SPA</title>");
writeFileSync(path.join(webDist, "spa-routes.json"), JSON.stringify(["/", "/home", "/login", "/dados-da-escola"]));
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

let server: TestServer;
let h: Harness;
withServer((s) => ({ h, server } = s), { env: { WEB_DIST: webDist } });

describe("the web app's fallback (issue 26)", () => {
  it("answers 200 with the shell on the app's own routes only; any other path is a real 404 page", async () => {
    for (const p of ["/home", "/home/", "/login?next=%2Fhome", "/dados-da-escola", "/HOME"]) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(200);
      expect(await res.text()).toContain("Elo Escolar SPA");
    }
    for (const p of ["/nao-existe", "/home/extra", "/escola-removida", "/wp-login.php"]) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain('<html lang="pt-BR">');
      expect(html).toContain('name="q"');
    }
    // The API's paths keep their JSON 404.
    const api = await fetch(`${server.url}/api/nada`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "Não encontrado" });
    // robots.txt keeps the signed-in app's pages out, not the landing page.
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain("Disallow: /home\n");
    expect(robots).toContain("Disallow: /dados-da-escola\n");
    expect(robots).not.toMatch(/Disallow: \/\n/);
    expect(h).toBeTruthy();
  });
});
