import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAppDatabase } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { loadSessionUser } from "../../src/auth/session";
import { createUser } from "../support/factories/users";
import { createHarness, type Harness } from "../support/harness";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const serverDir = path.join(root, "apps/server");
const cli = path.join(serverDir, "dist/admin-create.js");

/** Packages a production install keeps (`npm prune --omit=dev`): the runtime dependencies of the server's workspaces. */
function productionPackages() {
  const deps = (dir: string) => Object.keys((JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as { dependencies?: object }).dependencies ?? {});
  return new Set(["apps/server", "packages/db", "packages/shared"].flatMap(deps));
}

let h: Harness;
let dataDir: string;
beforeAll(async () => {
  await run(process.execPath, ["build.mjs"], { cwd: serverDir });
  h = await createHarness();
  dataDir = mkdtempSync(path.join(tmpdir(), "elo-cli-"));
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the bundled CLI with plain node (no tsx), as in the Docker image. */
async function adminCreate(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: root, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("admin:create as a bundled CLI", () => {
  it("imports only packages a production install keeps", () => {
    const source = readFileSync(cli, "utf8");
    const imported = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!).filter((s) => !s.startsWith("node:") && !s.startsWith("."));
    const pkg = (s: string) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/");
    const kept = productionPackages();
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.map(pkg).filter((p) => !kept.has(p))).toEqual([]);
    expect(source).not.toMatch(/from "tsx/);
  });

  it("grants admin to an existing account, and refuses an unknown e-mail", async () => {
    // Real PostgreSQL: the harness database. PGlite: a data folder the CLI opens after this process lets go of it.
    let env: Record<string, string>;
    let userId: string;
    let email: string;
    if (h.dbHandle.url) {
      const user = await createUser(h);
      env = { DATABASE_URL: h.dbHandle.url };
      userId = user.id;
      email = user.email;
    } else {
      const handle = await openAppDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
      const user = await createUser({ db: handle.db });
      await handle.close();
      env = { DATA_DIR: dataDir };
      userId = user.id;
      email = user.email;
    }

    const ok = await adminCreate(env, email.toUpperCase());
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`${email} agora é administrador(a).`);
    const unknown = await adminCreate(env, "ninguem@example.com.br");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Nenhuma conta com o e-mail ninguem@example.com.br");
    const usage = await adminCreate(env);
    expect(usage.code).toBe(2);

    if (h.dbHandle.url) {
      expect((await loadSessionUser(h.db, userId))!.isAdmin).toBe(true);
    } else {
      const handle = await openAppDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
      expect((await loadSessionUser(handle.db, userId))!.isAdmin).toBe(true);
      await handle.close();
    }
  }, 180_000);
});
