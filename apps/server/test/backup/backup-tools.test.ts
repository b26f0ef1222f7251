import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pgTool, pgToolFor, pgToolMajor } from "../../src/backup/pg-tools";

/**
 * pg_dump/pg_restore against the server they talk to (decision 185): the image's client major is
 * the compose server's, and a tool older than the server (or than the dump) is refused up front
 * with what to install, instead of failing halfway through a backup or a restore.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** `${NAME:-default}` as compose reads it with NAME unset. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");

describe("the image's pg_dump is the compose server's major", () => {
  const compose = parse(readFileSync(path.join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, { image?: string; build?: { args?: Record<string, string> } }>;
  };
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
  const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));

  it("db image, build argument and the Dockerfile's default agree", () => {
    const db = Object.values(compose.services).find((s) => s.image?.startsWith("postgres:"));
    const serverMajor = /^postgres:(\d+)/.exec(withDefaults(db!.image!))?.[1];
    expect(serverMajor).toBe("16");
    const apps = Object.values(compose.services).filter((s) => s.build);
    expect(apps.length).toBeGreaterThan(0);
    for (const app of apps) expect(withDefaults(String(app.build!.args?.PG_MAJOR))).toBe(serverMajor);
    // Both follow one variable: PG_MAJOR=17 moves the server and the client together.
    expect(db!.image).toContain("${PG_MAJOR:-");
    expect(/^ARG PG_MAJOR=(\d+)$/m.exec(runtime)?.[1]).toBe(serverMajor);
  });

  it("the runtime stage installs that client and points PG_BIN_DIR at it", () => {
    expect(runtime).toMatch(/postgresql-client-\$\{PG_MAJOR\}/);
    expect(runtime).toMatch(/apt\.postgresql\.org\/pub\/repos\/apt bookworm-pgdg main/);
    expect(runtime).toMatch(/signed-by=/);
    expect(runtime).toMatch(/^ENV PG_BIN_DIR=\/usr\/lib\/postgresql\/\$\{PG_MAJOR\}\/bin$/m);
    // The build fails if the binaries are not there to answer.
    expect(runtime).toMatch(/pg_dump --version/);
    expect(runtime).toMatch(/^FROM node:\d+-bookworm-slim/m);
  });
});

describe("a PostgreSQL tool older than it must be is refused up front", () => {
  const saved = process.env.PG_BIN_DIR;
  let dir = "";
  afterEach(() => {
    if (saved === undefined) delete process.env.PG_BIN_DIR;
    else process.env.PG_BIN_DIR = saved;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A PG_BIN_DIR whose pg_dump and pg_restore say they are `version`. */
  function fakeBin(version: string) {
    dir = mkdtempSync(path.join(tmpdir(), "elo-pgbin-"));
    for (const name of ["pg_dump", "pg_restore"]) {
      writeFileSync(path.join(dir, name), `#!/bin/sh\necho "${name} (PostgreSQL) ${version} (Debian ${version}-1.pgdg120+1)"\n`);
      chmodSync(path.join(dir, name), 0o755);
    }
    process.env.PG_BIN_DIR = dir;
  }

  it("pg_dump 15 against a PostgreSQL 16 server, pg_restore 15 for a dump of pg_dump 16", async () => {
    fakeBin("15.10");
    expect(pgTool("pg_dump")).toBe(path.join(dir, "pg_dump"));
    expect(await pgToolMajor(pgTool("pg_dump"))).toBe(15);
    await expect(pgToolFor("pg_dump", 16)).rejects.toThrow(/pg_dump 15 .* é mais antigo que o servidor \(PostgreSQL 16\): instale postgresql-client-16/);
    await expect(pgToolFor("pg_restore", 16)).rejects.toThrow(/pg_restore 15 .* é mais antigo que a cópia/);
  });

  it("accepts the same or a newer major", async () => {
    fakeBin("16.4");
    expect(await pgToolFor("pg_dump", 16)).toEqual({ path: path.join(dir, "pg_dump"), major: 16 });
    expect((await pgToolFor("pg_restore", 15)).major).toBe(16);
  });

  it("a missing tool has no version", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "elo-pgbin-"));
    expect(await pgToolMajor(path.join(dir, "pg_dump"))).toBeNull();
  });
});
