import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, schema, type DatabaseHandle } from "@elo/db";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { countTables, createBackup, readLedger, sha256 } from "../../src/backup/backup";
import { pgConnection } from "../../src/backup/pg-tools";
import { backupLocation, openBackup } from "../../src/backup/location";
import { restoreBackup, RestoreError } from "../../src/backup/restore";
import { eraseAccountRows } from "../../src/routers/privacy/erase-account";
import { startServer } from "../../src/bootstrap";
import { loadConfig } from "../../src/config";
import { seedDemoWorld } from "../../src/demo/demo-world";
import { diskStorage } from "../../src/storage/disk-storage";
import { s3Storage } from "../../src/storage/s3-storage";
import { BUCKETS, type Storage } from "../../src/storage/storage";
import { createUserEverywhere } from "../support/factories/privacy";
import { insertVoucher } from "../support/factories/vouchers";
import { createHarness, TEST_ORIGIN, type Harness } from "../support/harness";
import { startS3, type TestS3 } from "../support/s3";
import { onRealPostgres } from "../support/test-db";

/**
 * The restore drill (decision 182), as CI runs it: a world (the demo world, a voucher, proofs, a
 * family with files everywhere), a backup, the family deleting its account after the backup, then a
 * restore into a fresh database and fresh storage. Asserted: the row counts equal (the manifest's,
 * and after the ledger's replay the live database's), every file's hash, the deleted family absent
 * with its files, and a server started on the restored data serving a login and a desk voucher lookup.
 * Once with files on disk and the backup in a folder, once with files on an S3 server (s3rver) and
 * the backup under a prefix of another S3 server's bucket (decision 184).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** An empty database beside the test's (not from the migrated template). */
async function emptyDatabase(like: string): Promise<string> {
  const base = new URL(like);
  const name = `elo_restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(like.replace(base.pathname, "/postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return like.replace(base.pathname, `/${name}`);
}

const temp = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

async function drill(mode: "disk" | "s3") {
  const live: TestS3 | null = mode === "s3" ? await startS3("elo-live") : null;
  const fresh: TestS3 | null = mode === "s3" ? await startS3("elo-restored") : null;
  if (live) cleanups.push(() => live.close());
  if (fresh) cleanups.push(() => fresh.close());
  const h: Harness = await createHarness({ env: live?.env ?? {} });
  cleanups.push(() => h.close());
  const url = (h.dbHandle as DatabaseHandle & { url: string }).url;

  // The world: the demo world, a voucher at the desk's school, a family with files and rows everywhere.
  const logins = await seedDemoWorld(h.deps);
  expect(logins).not.toBeNull();
  const [benefit] = await h.db.select({ id: schema.discounts.id, schoolId: schema.discounts.schoolId }).from(schema.discounts).innerJoin(schema.schools, eq(schema.schools.id, schema.discounts.schoolId)).where(eq(schema.schools.name, "Fluent English School"));
  const [parent] = await h.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, logins!.pais.email));
  const voucher = await insertVoucher(h, benefit!, parent!.id, { code: "4321-DRIL" });
  const family = await createUserEverywhere(h, { storage: h.deps.storage, password: "Senha#Forte123" });

  // Disk: a folder. S3: a prefix of another bucket (another server: copies off the machine), named by its address.
  const backups: TestS3 | null = mode === "s3" ? await startS3("elo-backups") : null;
  if (backups) cleanups.push(() => backups.close());
  const to = backups ? "s3://elo-backups/nightly/rede" : temp("elo-bk-");
  const location = backupLocation(to, backups?.env ?? {});
  cleanups.push(() => location.close());
  const lines: string[] = [];
  const { dir, name, manifest } = await createBackup({ handle: h.dbHandle, databaseUrl: url, storage: h.deps.storage, to: location, progress: (l) => lines.push(l) });
  expect(lines.at(-1)).toMatch(/^Pronto/);
  if (backups) {
    expect(dir).toBe(`s3://elo-backups/nightly/rede/${name}`);
    expect(await location.names()).toEqual([name]);
    for (const rel of ["manifest.json", "database.dump", "deletions.json", `files/${manifest.files[0]!.bucket}/${manifest.files[0]!.key}`]) expect(await location.sha256(name, rel), rel).toMatch(/^[0-9a-f]{64}$/);
  } else expect(readdirSync(dir)).toEqual(expect.arrayContaining(["manifest.json", "database.dump", "deletions.json", "files"]));
  expect(manifest.tables["public.users"]).toBeGreaterThanOrEqual(4);
  expect(manifest.tables["public.discount_transactions"]).toBeGreaterThanOrEqual(1);
  const familyFiles = manifest.files.filter((f) => f.key.startsWith(`${family.id}/`));
  expect(familyFiles.length).toBe(3);
  expect(manifest.files.filter((f) => f.bucket === "school_logos").length).toBeGreaterThan(0);

  // After the backup, the family deletes its account.
  await (await h.caller(family.id)).privacy.deleteAccount({ password: "Senha#Forte123" });
  // On S3 the deletion is known only from a later backup beside the first (no --ledger-from): the
  // restore must find it under the same prefix.
  if (backups) await createBackup({ handle: h.dbHandle, databaseUrl: url, storage: h.deps.storage, to: location, now: new Date(Date.now() + 2000) });

  const target = await emptyDatabase(url);
  const storageRoot = temp("elo-restored-");
  const storage: Storage = fresh ? s3Storage(fresh.settings) : diskStorage(path.join(storageRoot, "storage"), "unused");
  cleanups.push(() => storage.close());
  const progress: string[] = [];
  const backup = openBackup(dir, backups?.env ?? {});
  cleanups.push(() => backup.location.close());
  const result = await restoreBackup(backup, { databaseUrl: target, storage }, { ledger: backups ? [] : await readLedger(h.db), progress: (l) => progress.push(l) });
  cleanups.push(() => result.handle.close());
  expect(result.erased).toBe(1);
  expect(result.skippedFiles).toBe(3);
  expect(progress.some((l) => l.includes("conferidas com o manifesto"))).toBe(true);

  // Counts: the restore checked the manifest's before the replay; after it, they are the live database's.
  expect(await countTables(result.handle.db)).toEqual(await countTables(h.db));
  // Every file's hash, and none of the family's.
  for (const f of manifest.files) {
    const got = await storage.get(f.bucket, f.key);
    if (f.key.startsWith(`${family.id}/`)) expect(got, `${f.bucket}/${f.key}`).toBeNull();
    else expect(sha256(got!.bytes), `${f.bucket}/${f.key}`).toBe(f.sha256);
  }
  for (const bucket of BUCKETS) expect(await storage.list(bucket, `${family.id}/`)).toEqual([]);
  expect(await result.handle.db.select().from(schema.users).where(eq(schema.users.id, family.id))).toEqual([]);
  expect(await result.handle.db.select().from(schema.users).where(eq(schema.users.email, family.email))).toEqual([]);

  // Never over data: the same restore again is refused, for the database and for the storage.
  await expect(restoreBackup(backup, { databaseUrl: target, storage })).rejects.toThrow(RestoreError);
  const other = await emptyDatabase(url);
  await expect(restoreBackup(backup, { databaseUrl: other, storage })).rejects.toThrow(/armazenamento de destino não está vazio/);

  // A server on the restored data: the desk logs in and finds the voucher.
  const restoredDb = await openDatabase({ url: target, poolMax: 3 });
  cleanups.push(() => restoredDb.close());
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: storageRoot, LOG_LEVEL: "silent", PUBLIC_URL: TEST_ORIGIN, DEMO: "0", PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0", JOBS_INTERVAL_MS: "0", ...(fresh?.env ?? {}) });
  const server = await startServer(config, { clock: h.clock, dbHandle: restoredDb });
  cleanups.push(() => server.close());
  const login = await fetch(`${server.url}/trpc/auth.login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: TEST_ORIGIN },
    body: JSON.stringify({ json: logins!.escola }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const lookup = await fetch(`${server.url}/trpc/school.vouchers.lookup?input=${encodeURIComponent(JSON.stringify({ json: { code: voucher.voucherCode } }))}`, { headers: { cookie } });
  const body = await lookup.text();
  expect(lookup.status, body).toBe(200);
  expect(body).toContain(voucher.voucherCode);
  // The deleted family cannot sign in on the restored server.
  const gone = await fetch(`${server.url}/trpc/auth.login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: TEST_ORIGIN },
    body: JSON.stringify({ json: { email: family.email, password: "Senha#Forte123" } }),
  });
  expect(gone.status).toBe(401);
}

describe.skipIf(!onRealPostgres())("backup and restore drill (PostgreSQL)", () => {
  it("with files on disk", () => drill("disk"), 120_000);
  it("with files on an S3 server", () => drill("s3"), 120_000);

  it("refuses a folder without a manifest, and a dump that does not match its hash", async () => {
    const dir = temp("elo-bk-bad-");
    await expect(restoreBackup(dir, { databaseUrl: "postgres://x@127.0.0.1:1/x", storage: diskStorage(dir, "unused") })).rejects.toThrow(/não tem manifest.json/);
    writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ format: "elo-backup/1", createdAt: "", database: { kind: "postgres", file: "database.dump", sha256: "00", bytes: 1 }, tables: {}, files: [], deletions: 0 }));
    writeFileSync(path.join(dir, "database.dump"), "x");
    await expect(restoreBackup(dir, { databaseUrl: "postgres://x@127.0.0.1:1/x", storage: diskStorage(dir, "unused") })).rejects.toThrow(/corrompida/);
  });
});

it.skipIf(onRealPostgres())("the backup drill needs real PostgreSQL (set TEST_DATABASE_URL)", () => {
  expect(onRealPostgres()).toBe(false);
});

describe("backup and restore on PGlite (its own data directory dump)", () => {
  it("restores into a new data directory, erasing an account deleted after the backup, and refuses a used one", async () => {
    const root = temp("elo-bk-pglite-");
    const live = await openDatabase({ dataDir: path.join(root, "live") });
    cleanups.push(() => live.close());
    await live.migrate();
    const storage = diskStorage(path.join(root, "live-files"), "unused");
    const [kept] = await live.db.insert(schema.users).values({ email: "fica@teste.com.br", passwordHash: "x" }).returning({ id: schema.users.id });
    const [gone] = await live.db.insert(schema.users).values({ email: "sai@teste.com.br", passwordHash: "x" }).returning({ id: schema.users.id });
    await storage.put("avatars", `${kept!.id}/a.png`, Buffer.from("kept"), "image/png");
    await storage.put("avatars", `${gone!.id}/a.png`, Buffer.from("gone"), "image/png");
    const { dir, manifest } = await createBackup({ handle: live, storage, to: path.join(root, "backups") });
    expect(manifest.database.kind).toBe("pglite");
    await live.db.transaction((tx) => eraseAccountRows(tx, gone!.id, new Date()));

    const target = diskStorage(path.join(root, "restored-files"), "unused");
    const result = await restoreBackup(dir, { pgliteDir: path.join(root, "restored"), storage: target }, { ledger: await readLedger(live.db) });
    cleanups.push(() => result.handle.close());
    expect(result.erased).toBe(1);
    expect((await result.handle.db.select({ email: schema.users.email }).from(schema.users)).map((u) => u.email)).toEqual(["fica@teste.com.br"]);
    expect((await target.get("avatars", `${kept!.id}/a.png`))?.bytes.toString()).toBe("kept");
    expect(await target.get("avatars", `${gone!.id}/a.png`)).toBeNull();
    await expect(restoreBackup(dir, { pgliteDir: path.join(root, "restored"), storage: diskStorage(path.join(root, "other-files"), "unused") })).rejects.toThrow(/não está vazia/);
  }, 180_000);
});

it("hands pg_dump and pg_restore the password in PGPASSWORD, never on the command line", () => {
  const conn = pgConnection("postgres://elo:s%40cr%C3%AAt@db:5432/elo?sslmode=require");
  expect(conn.dbname).toBe("postgres://elo@db:5432/elo?sslmode=require");
  expect(conn.env.PGPASSWORD).toBe("s@crêt");
  expect(pgConnection("postgres://postgres@127.0.0.1:5432/x").env.PGPASSWORD).toBe(process.env.PGPASSWORD);
});

it("reads backup addresses: a folder, s3://bucket/prefix, and says what is missing for a bucket", () => {
  const env = { S3_ENDPOINT: "http://s3.local:9000", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b", BACKUP_S3_ENDPOINT: "http://outro:9000" };
  const at = openBackup("s3://copias/rede/diario/elo-backup-20261128T020304Z/", env);
  expect(at.name).toBe("elo-backup-20261128T020304Z");
  expect(at.location.kind).toBe("s3");
  expect(at.location.address(at.name)).toBe("s3://copias/rede/diario/elo-backup-20261128T020304Z");
  at.location.close();
  const top = backupLocation("s3://copias", env);
  expect(top.address("elo-backup-x")).toBe("s3://copias/elo-backup-x");
  top.close();
  expect(openBackup("/srv/copias/elo-backup-x").location.address("elo-backup-x")).toBe("/srv/copias/elo-backup-x");
  expect(() => backupLocation("s3://copias/x", {})).toThrow(/BACKUP_S3_ENDPOINT \(ou S3_ENDPOINT\)/);
  expect(() => backupLocation("s3://Maiúsculas/x", env)).toThrow(/Endereço de cópia inválido/);
  expect(() => openBackup("s3://copias/rede", env)).toThrow(/Endereço de cópia inválido/);
});
