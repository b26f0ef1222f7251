import { existsSync } from "node:fs";
import path from "node:path";
import { schema } from "@elo/db";
import { privacyMessages } from "@elo/shared";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bucket } from "../../src/storage/storage";
import { pdfBytes, pngBytes, uploadForm } from "../support/factories/files";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createUser } from "../support/factories/users";
import { createHarness, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { startS3, type TestS3 } from "../support/s3";

/** The whole app with S3 configured, on a real s3rver: uploads, the addresses handed out, LGPD export and deletion. */
let s3: TestS3;
let h: Harness;
let server: TestServer;
beforeAll(async () => {
  s3 = await startS3();
  h = await createHarness({ env: s3.env });
  server = await h.startServer();
});
afterAll(async () => {
  await server?.close();
  await h?.close();
  await s3?.close();
});

const bucketBase = () => `${s3.env.S3_ENDPOINT}/${s3.env.S3_BUCKET}/`;

async function upload(route: string, cookie: string, form: FormData) {
  const res = await fetch(`${server.url}${route}`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A tRPC call over HTTP as the browser makes it (superjson envelope). */
async function trpc(procedure: string, cookie: string, mutation = false, input: unknown = {}) {
  const res = await fetch(`${server.url}/trpc/${procedure}`, {
    method: mutation ? "POST" : "GET",
    headers: { cookie, origin: TEST_ORIGIN, ...(mutation ? { "content-type": "application/json" } : {}) },
    body: mutation ? JSON.stringify({ json: input }) : undefined,
  });
  const body = (await res.json()) as { result?: { data: { json: any } }; error?: unknown };
  if (!res.ok) throw new Error(`${procedure}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data.json;
}

/** Fetches an address the API handed out, and the bytes the store holds for it. */
async function served(address: string) {
  const res = await fetch(new URL(address, server.url));
  return { status: res.status, disposition: res.headers.get("content-disposition"), bytes: Buffer.from(await res.arrayBuffer()) };
}
const storedBytes = async (bucket: Bucket, key: string) => (await h.deps.storage.get(bucket, key))?.bytes;
const keyIn = (address: string, bucket: Bucket) => decodeURIComponent(new URL(address).pathname).split(`/${bucket}/`)[1]!;

async function parentWithSchool() {
  const school = await createSchool(h);
  return createUser(h, { profile: { studentName: "Ana Souza", schoolId: school.id, schoolName: school.name } });
}

describe("uploads with S3 configured", () => {
  it("stores an avatar and a proof in the bucket, never on disk, and hands out presigned addresses that serve them", async () => {
    const parent = await parentWithSchool();
    const cookie = await sessionCookie(h, parent.id);

    const avatar = await upload("/api/uploads/avatar", cookie, uploadForm(pngBytes(), "foto.png"));
    expect(avatar.status).toBe(200);
    expect(avatar.body.avatarUrl.startsWith(`${bucketBase()}avatars/${parent.id}/`)).toBe(true);
    expect(avatar.body.avatarUrl).toMatch(/X-Amz-Signature=/);
    const avatarKey = keyIn(avatar.body.avatarUrl, "avatars");
    const gotAvatar = await served(avatar.body.avatarUrl);
    expect(gotAvatar.status).toBe(200);
    expect(gotAvatar.bytes.equals((await storedBytes("avatars", avatarKey))!)).toBe(true);

    const proof = await upload("/api/uploads/enrollment-proof", cookie, uploadForm(pdfBytes(), "comprovante.pdf"));
    expect(proof.status).toBe(200);
    expect(proof.body.proofUrl.startsWith(`${bucketBase()}enrollment_proofs/${parent.id}/`)).toBe(true);
    const gotProof = await served(proof.body.proofUrl);
    expect(gotProof.status).toBe(200);
    expect(gotProof.bytes.equals(pdfBytes())).toBe(true);
    expect(gotProof.disposition).toBe(`attachment; filename="comprovante.pdf"`);

    // Nothing went to the disk store's folder.
    expect(existsSync(path.join(h.config.DATA_DIR, "storage"))).toBe(false);

    // The profile hands out working addresses too, and the admin's e-mail link is the presigned one as is.
    const profile = await trpc("profile.get", cookie);
    expect((await served(profile.avatarUrl)).status).toBe(200);
    expect((await served(profile.enrollmentProofUrl)).status).toBe(200);
    expect((await served((await trpc("auth.me", cookie)).avatarUrl)).status).toBe(200);
    const [mail] = await h.db.select({ text: schema.emailOutbox.text }).from(schema.emailOutbox).where(eq(schema.emailOutbox.to, h.config.ADMIN_EMAIL)).orderBy(desc(schema.emailOutbox.createdAt)).limit(1);
    const link = mail!.text!.match(/https?:\/\/\S+X-Amz-Signature=[0-9a-f]+\S*/)?.[0];
    expect(link?.startsWith(`${bucketBase()}enrollment_proofs/${parent.id}/`)).toBe(true);
    expect((await served(link!)).status).toBe(200);
  });

  it("lets pages show images from a plain-http bucket: the CSP's img-src names its origin", async () => {
    const csp = (await fetch(`${server.url}/healthz`)).headers.get("content-security-policy") ?? "";
    expect(csp.split(";").find((d) => d.trim().startsWith("img-src"))?.split(" ")).toContain(new URL(s3.env.S3_ENDPOINT!).origin);
  });

  it("serves a school logo at the app's stable address, streamed from the bucket", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const res = await upload("/api/uploads/school-logo", await sessionCookie(h, staff.id), uploadForm(pngBytes(), "logo.png"));
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toMatch(new RegExp(`^/files/school_logos/${school.id}/logo-\\d+-[0-9a-f]{8}\\.png$`));
    const logo = await served(res.body.logoUrl);
    expect(logo.status).toBe(200);
    expect(logo.bytes.equals((await storedBytes("school_logos", res.body.logoUrl.replace("/files/school_logos/", "")))!)).toBe(true);
  });
});

describe("LGPD with S3 configured", () => {
  it("exports every file of the user, left-overs included, and deleting the account removes them from the bucket", async () => {
    const parent = await parentWithSchool();
    const other = await parentWithSchool();
    const cookie = await sessionCookie(h, parent.id);
    expect((await upload("/api/uploads/avatar", cookie, uploadForm(pngBytes(), "foto.png"))).status).toBe(200);
    expect((await upload("/api/uploads/enrollment-proof", cookie, uploadForm(pdfBytes(), "comprovante.pdf"))).status).toBe(200);
    expect((await upload("/api/uploads/avatar", await sessionCookie(h, other.id), uploadForm(pngBytes(), "foto.png"))).status).toBe(200);
    // An old proof whose removal failed when it was replaced: no row points at it, it is still the user's.
    const leftover = `${parent.id}/proof-1700000000000-deadbeef.pdf`;
    await h.deps.storage.put("enrollment_proofs", leftover, pdfBytes(), "application/pdf");

    const exported = await trpc("privacy.export", cookie, true);
    const files = exported.files as { bucket: Bucket; key: string; kind: string; url: string }[];
    expect(files.map((f) => f.bucket).sort()).toEqual(["avatars", "enrollment_proofs", "enrollment_proofs"]);
    expect(files.find((f) => f.key === leftover)?.kind).toBe(privacyMessages.leftoverFileKind);
    for (const f of files) {
      expect(f.url.startsWith(`${bucketBase()}${f.bucket}/${parent.id}/`)).toBe(true);
      expect((await served(f.url)).status).toBe(200);
    }

    await trpc("privacy.deleteAccount", cookie, true, { password: parent.password });
    for (const bucket of ["avatars", "enrollment_proofs"] as const) expect(await h.deps.storage.list(bucket, `${parent.id}/`)).toEqual([]);
    for (const f of files) expect((await served(f.url)).status).toBe(404);
    // Another user's files stay.
    expect(await h.deps.storage.list("avatars", `${other.id}/`)).toHaveLength(1);
  });
});
