import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../../src/deps";
import { registerFileRoutes } from "../../src/http/files";
import { manualClock } from "../../src/lib/clock";
import { diskStorage } from "../../src/storage/disk-storage";
import { s3Storage } from "../../src/storage/s3-storage";
import type { Storage } from "../../src/storage/storage";
import { startS3 } from "../support/s3";

type Store = { storage: Storage; close(): Promise<void> };
type Clock = ReturnType<typeof manualClock>;

/** The two stores, each built on a clock the test moves; every test runs against both. */
const stores: [string, (clock: Clock) => Promise<Store>][] = [
  [
    "disk",
    async (clock) => {
      const root = mkdtempSync(path.join(tmpdir(), "elo-disk-"));
      return { storage: diskStorage(root, "test-secret", () => clock.now().getTime()), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  ],
  [
    "s3 (s3rver)",
    async (clock) => {
      const s3 = await startS3();
      const storage = s3Storage(s3.settings, () => clock.now().getTime());
      return { storage, close: async () => (storage.close(), s3.close()) };
    },
  ],
];

describe.each(stores)("storage contract: %s", (name, open) => {
  const clock = manualClock(new Date());
  let store: Store;
  let storage: Storage;
  /** The app's /files route over this store: relative addresses resolve against it, presigned ones are absolute. */
  let files: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    store = await open(clock);
    storage = store.storage;
    files = Fastify();
    registerFileRoutes(files, { storage, clock } as unknown as AppDeps);
    base = await files.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await files?.close();
    await store?.close();
  });

  const fetchAddress = (address: string) => fetch(new URL(address, base));
  const owner = () => randomUUID();

  it("gives back what was put, with its content type", async () => {
    const key = `${owner()}/avatar-1.png`;
    await storage.put("avatars", key, Buffer.from("png bytes"), "image/png");
    const file = await storage.get("avatars", key);
    expect(file?.bytes.toString()).toBe("png bytes");
    expect(file?.contentType).toBe("image/png");
  });

  it("overwrites a key with the last bytes put", async () => {
    const key = `${owner()}/proof-1.pdf`;
    await storage.put("enrollment_proofs", key, Buffer.from("first"), "application/pdf");
    await storage.put("enrollment_proofs", key, Buffer.from("second version"), "image/jpeg");
    expect(await storage.get("enrollment_proofs", key)).toEqual({ bytes: Buffer.from("second version"), contentType: "image/jpeg" });
    expect(await storage.list("enrollment_proofs", key.split("/")[0] + "/")).toEqual([expect.objectContaining({ key, size: 14 })]);
  });

  it("answers null for a missing key, and removes quietly, twice", async () => {
    const key = `${owner()}/avatar-2.png`;
    expect(await storage.get("avatars", key)).toBeNull();
    await storage.put("avatars", key, Buffer.from("x"), "image/png");
    await storage.remove("avatars", key);
    expect(await storage.get("avatars", key)).toBeNull();
    await expect(storage.remove("avatars", key)).resolves.toBeUndefined();
    expect(await storage.list("avatars", key.split("/")[0] + "/")).toEqual([]);
  });

  it("keeps buckets apart", async () => {
    const key = `${owner()}/same-name.png`;
    await storage.put("avatars", key, Buffer.from("avatar"), "image/png");
    expect(await storage.get("enrollment_proofs", key)).toBeNull();
    await storage.remove("enrollment_proofs", key);
    expect((await storage.get("avatars", key))?.bytes.toString()).toBe("avatar");
  });

  it("lists one owner's files, with sizes, in key order, and nothing of another owner", async () => {
    const me = owner();
    const other = owner();
    await storage.put("enrollment_proofs", `${me}/proof-2.png`, Buffer.from("22"), "image/png");
    await storage.put("enrollment_proofs", `${me}/enrollment-1-5.pdf`, Buffer.from("1"), "application/pdf");
    await storage.put("enrollment_proofs", `${other}/proof-9.png`, Buffer.from("999"), "image/png");
    await storage.put("avatars", `${me}/avatar-3.png`, Buffer.from("a"), "image/png");
    const mine = await storage.list("enrollment_proofs", `${me}/`);
    expect(mine.map((e) => [e.key, e.size])).toEqual([
      [`${me}/enrollment-1-5.pdf`, 1],
      [`${me}/proof-2.png`, 2],
    ]);
    expect(await storage.list("enrollment_proofs", `${owner()}/`)).toEqual([]);
    // The whole bucket: every owner, what the copy command walks.
    const all = (await storage.list("enrollment_proofs", "")).map((e) => e.key);
    expect(all).toEqual(expect.arrayContaining([`${me}/enrollment-1-5.pdf`, `${me}/proof-2.png`, `${other}/proof-9.png`]));
  });

  it("refuses keys the server could not have made", async () => {
    for (const key of ["../escape.png", "a/../../b.png", "/abs.png", "a b.png"]) {
      await expect(storage.put("avatars", key, Buffer.from("x"), "image/png")).rejects.toThrow(/unsafe storage key/);
    }
  });

  it("hands out a private address that serves the file until it expires", async () => {
    const key = `${owner()}/avatar-4.png`;
    await storage.put("avatars", key, Buffer.from("private"), "image/png");
    const fresh = await storage.signedUrl("avatars", key, 60);
    const res = await fetchAddress(fresh);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(await res.text()).toBe("private");

    // Signed two hours ago for one hour: already expired now.
    const realNow = clock.now();
    clock.set(new Date(realNow.getTime() - 2 * 3600_000));
    const old = await storage.signedUrl("avatars", key, 3600);
    clock.set(realNow);
    expect((await fetchAddress(old)).status).toBe(403);
    expect((await fetchAddress(fresh)).status).toBe(200);
  });

  // On S3 the bucket checks signatures and keeps private objects private; s3rver checks neither
  // (only the expiry), so this is the disk store's own promise.
  it.runIf(name === "disk")("refuses a private address without its signature, or with another file's", async () => {
    const key = `${owner()}/avatar-6.png`;
    await storage.put("avatars", key, Buffer.from("private"), "image/png");
    await storage.put("avatars", key.replace("avatar-6", "avatar-7"), Buffer.from("other"), "image/png");
    const signed = await storage.signedUrl("avatars", key);
    const bare = new URL(signed, base);
    bare.search = "";
    expect((await fetch(bare)).status).toBe(403);
    const tampered = new URL(signed, base);
    tampered.pathname = tampered.pathname.replace("avatar-6", "avatar-7");
    expect((await fetch(tampered)).status).toBe(403);
  });

  it("serves public logos at a stable address through the app", async () => {
    const key = `${owner()}/logo-1.png`;
    await storage.put("school_logos", key, Buffer.from("logo"), "image/png");
    const address = storage.publicUrl("school_logos", key);
    expect(address).toBe(`/files/school_logos/${key}`);
    expect(await storage.signedUrl("school_logos", key)).toBe(address);
    const res = await fetchAddress(address);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("logo");
    await storage.remove("school_logos", key);
    expect((await fetchAddress(address)).status).toBe(404);
  });
});
