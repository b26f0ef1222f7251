import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/child-server";
import { pngBytes, uploadForm } from "../support/factories/files";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { startS3, type TestS3 } from "../support/s3";

/**
 * The repository's deploy/Caddyfile, run by a real Caddy in front of two servers and an S3 server
 * (decision 136). Only the addresses are changed: its port, the replicas' and MinIO's. Skipped where
 * no `caddy` binary is installed.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const caddyInstalled = (() => {
  try {
    execFileSync("caddy", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** The Caddyfile with its addresses swapped for this test's; throws if one is no longer there. */
function localCaddyfile(port: number, apps: string[], store: string) {
  const swaps: Array<[string, string]> = [
    [":80 {", `:${port} {`],
    // Both: the health-checked rotation and the fallback when no replica is ready (decision 181).
    ["app1:3000 app2:3000", apps.join(" ")],
    ["reverse_proxy minio:9000", `reverse_proxy ${store}`],
  ];
  return swaps.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`deploy/Caddyfile no longer has "${from}"`);
    return text.replaceAll(from, to);
  }, readFileSync(path.join(root, "deploy/Caddyfile"), "utf8"));
}

let h: Harness;
let s3: TestS3;
let servers: TestServer[] = [];
let caddy: ChildProcess | null = null;
let dir: string;
let proxyUrl: string;

beforeAll(async () => {
  if (!caddyInstalled) return;
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  s3 = await startS3("elo-files");
  // As in compose: presigned links on the proxy's origin, X-Forwarded-For believed from the proxy only, limits on.
  h = await createHarness({ env: { ...s3.env, S3_PUBLIC_ENDPOINT: proxyUrl, TRUST_PROXY: "127.0.0.1", RATE_LIMIT: "1" } });
  servers = [await h.startServer(), await h.startServer()];
  dir = mkdtempSync(path.join(tmpdir(), "elo-caddy-"));
  const config = path.join(dir, "Caddyfile");
  writeFileSync(config, localCaddyfile(port, servers.map((s) => new URL(s.url).host), new URL(s3.env.S3_ENDPOINT!).host));
  caddy = spawn("caddy", ["run", "--config", config, "--adapter", "caddyfile"], { env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }, stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${proxyUrl}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("Caddy did not answer");
}, 60_000);

afterAll(async () => {
  caddy?.kill();
  for (const s of servers) await s.close();
  await h?.close();
  await s3?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!caddyInstalled)("deploy/Caddyfile in front of two servers (needs the caddy binary)", () => {
  it("drops the client's own X-Forwarded-For: logins 'from 42 addresses' count as one client", async () => {
    const answers = await Promise.all(
      Array.from({ length: 42 }, (_, i) =>
        fetch(`${proxyUrl}/trpc/auth.login`, {
          method: "POST",
          headers: { origin: TEST_ORIGIN, "content-type": "application/json", "x-forwarded-for": `10.9.${i >> 8}.${i & 255}` },
          body: JSON.stringify({ json: { email: `nobody${i}@example.com`, password: "wrong-password-1" } }),
        }).then((r) => r.status),
      ),
    );
    // 20 a minute per address on each server (in memory here: no Redis); 21 reach each of the two.
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(answers.every((s) => s === 429 || (s >= 400 && s < 500))).toBe(true);
  });

  it("sends a presigned link on the proxy's origin to the bucket", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const res = await fetch(`${proxyUrl}/api/uploads/avatar`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN }, body: uploadForm(pngBytes(), "foto.png") });
    expect(res.status).toBe(200);
    const { avatarUrl } = (await res.json()) as { avatarUrl: string };
    expect(avatarUrl.startsWith(`${proxyUrl}/elo-files/avatars/${user.id}/`)).toBe(true);
    const file = await fetch(avatarUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^image\//);
  });

  it("answers from the other server when one has stopped, before any health check notices", async () => {
    await servers.pop()!.close();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${proxyUrl}/healthz`).then((r) => r.status)));
    expect(statuses).toEqual(Array(10).fill(200));
  });
});
