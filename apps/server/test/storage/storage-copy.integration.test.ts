import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyStorage, type CopyProgress } from "../../src/storage/copy-storage";
import { diskStorage } from "../../src/storage/disk-storage";
import { s3Storage } from "../../src/storage/s3-storage";
import type { Storage } from "../../src/storage/storage";
import { startS3, type TestS3 } from "../support/s3";

const run = promisify(execFile);
const serverDir = fileURLToPath(new URL("../../", import.meta.url));

let s3: TestS3;
let dataDir: string;
let disk: Storage;
let bucket: Storage;
beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), "elo-copy-"));
  disk = diskStorage(path.join(dataDir, "storage"), "unused");
  bucket = s3Storage(s3.settings);
});
afterAll(async () => {
  bucket?.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the command as an operator would (plain output, not a terminal). */
async function storageCopy(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/storage-copy.ts"], { cwd: serverDir, env: { PATH: process.env.PATH ?? "", ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("copying the disk store to the bucket", () => {
  it("copies every file of every bucket once, then skips them; a changed file is copied again", async () => {
    await disk.put("avatars", "u1/avatar-1.png", Buffer.from("avatar one"), "image/png");
    await disk.put("enrollment_proofs", "u1/proof-1.pdf", Buffer.from("%PDF proof"), "application/pdf");
    await disk.put("enrollment_proofs", "u2/enrollment-1-2.jpg", Buffer.from("jpeg"), "image/jpeg");
    await disk.put("school_logos", "s1/logo-1.png", Buffer.from("logo"), "image/png");

    const seen: CopyProgress[] = [];
    expect(await copyStorage(disk, bucket, (p) => seen.push(p))).toEqual({ done: 4, total: 4, copied: 4, skipped: 0 });
    expect(seen.map((p) => p.done)).toEqual([0, 1, 2, 3, 4]);
    expect(await bucket.get("enrollment_proofs", "u1/proof-1.pdf")).toEqual({ bytes: Buffer.from("%PDF proof"), contentType: "application/pdf" });
    expect(await bucket.get("school_logos", "s1/logo-1.png")).toEqual({ bytes: Buffer.from("logo"), contentType: "image/png" });

    expect(await copyStorage(disk, bucket)).toEqual({ done: 4, total: 4, copied: 0, skipped: 4 });

    // Same size, other bytes in the bucket (a half-written object): the MD5 tells them apart.
    await bucket.put("avatars", "u1/avatar-1.png", Buffer.from("avatar ONE"), "image/png");
    await disk.put("school_logos", "s1/logo-1.png", Buffer.from("a new logo"), "image/png");
    expect(await copyStorage(disk, bucket)).toEqual({ done: 4, total: 4, copied: 2, skipped: 2 });
    expect((await bucket.get("avatars", "u1/avatar-1.png"))?.bytes.toString()).toBe("avatar one");
    expect((await bucket.get("school_logos", "s1/logo-1.png"))?.bytes.toString()).toBe("a new logo");
  });

  it("runs as `npm run storage:copy` does, printing a progress line, and again without copying twice", async () => {
    await disk.put("avatars", "u3/avatar-9.png", Buffer.from("from the command"), "image/png");
    // A stray file beside the stored ones is not a stored file.
    writeFileSync(path.join(dataDir, "storage", "avatars", "u3", "avatar-9.png.type.tmp"), "x");
    const env = { DATA_DIR: dataDir, ...s3.env };
    const total = (await Promise.all((["avatars", "enrollment_proofs", "school_logos"] as const).map((b) => disk.list(b, "")))).flat().length;

    const first = await storageCopy(env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${total}/${total} arquivos, \\d+ copiados, \\d+ já existiam$`, "m"));
    expect((await bucket.get("avatars", "u3/avatar-9.png"))?.bytes.toString()).toBe("from the command");

    const again = await storageCopy(env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${total}/${total} arquivos, 0 copiados, ${total} já existiam`);
  });

  it("refuses to run without a bucket configured", async () => {
    const res = await storageCopy({ DATA_DIR: dataDir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/S3_BUCKET/);
  });
});
