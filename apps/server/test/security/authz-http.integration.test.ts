import { schema } from "@elo/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { addEnrollment, eligibleParent } from "../support/factories/benefits";
import { pdfBytes, pngBytes, uploadForm } from "../support/factories/files";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";

/** The HTTP half of the authorization matrix: upload routes and the file route, by actor. */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

async function post(route: string, cookie: string | null, form: FormData) {
  const headers: Record<string, string> = { origin: TEST_ORIGIN };
  if (cookie) headers.cookie = cookie;
  const res = await fetch(`${server.url}${route}`, { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as { error?: { title: string } } };
}
const get = (route: string) => fetch(`${server.url}${route}`).then(async (r) => ({ status: r.status, body: await r.arrayBuffer() }));

describe("upload routes × actors", () => {
  it("/api/uploads/avatar: anonymous 401 (nothing stored), a signed-in user 200 on their own profile only", async () => {
    const parentA = await eligibleParent(h);
    const anon = await post("/api/uploads/avatar", null, uploadForm(pngBytes(), "a.png"));
    expect(anon.status).toBe(401);
    expect(anon.body.error?.title).toMatch(/[a-zà-ú]/i);
    const own = await post("/api/uploads/avatar", await sessionCookie(h, parentA.id), uploadForm(pngBytes(), "a.png"));
    expect(own.status).toBe(200);
    const [p] = await h.db.select({ avatarUrl: schema.profiles.avatarUrl }).from(schema.profiles).where(eq(schema.profiles.userId, parentA.id));
    expect(p!.avatarUrl!.startsWith(`${parentA.id}/`)).toBe(true);
  });

  it("/api/uploads/enrollment-proof: anonymous 401, institution 403, parent B on A's enrollment 404 with A's row untouched", async () => {
    const school = await createSchool(h);
    const parentA = await eligibleParent(h);
    const parentB = await eligibleParent(h);
    const staff = await createStaff(h, school.id);
    const enrollment = await addEnrollment(h, parentA.id, school.id);
    const form = () => uploadForm(pdfBytes(), "comprovante.pdf", { enrollmentId: enrollment.id });

    expect((await post("/api/uploads/enrollment-proof", null, form())).status).toBe(401);
    expect((await post("/api/uploads/enrollment-proof", await sessionCookie(h, staff.id), form())).status).toBe(403);
    const wrongOwner = await post("/api/uploads/enrollment-proof", await sessionCookie(h, parentB.id), form());
    expect(wrongOwner.status).toBe(404);
    const [row] = await h.db.select({ proofUrl: schema.enrollments.proofUrl }).from(schema.enrollments).where(eq(schema.enrollments.id, enrollment.id));
    expect(row!.proofUrl).toBeNull();

    expect((await post("/api/uploads/enrollment-proof", await sessionCookie(h, parentA.id), form())).status).toBe(200);
  });
});

describe("file route × actors", () => {
  it("serves a private file only with its own unexpired signature", async () => {
    const parentA = await eligibleParent(h);
    const parentB = await eligibleParent(h);
    const keyA = `${parentA.id}/avatar-1.png`;
    const keyB = `${parentB.id}/avatar-1.png`;
    await h.deps.storage.put("avatars", keyA, pngBytes(), "image/png");
    await h.deps.storage.put("avatars", keyB, pngBytes(), "image/png");

    // Anonymous, no signature.
    expect((await get(`/files/avatars/${keyA}`)).status).toBe(403);
    // B's valid signature replayed on A's key ("wrong owner").
    const signedB = await h.deps.storage.signedUrl("avatars", keyB);
    const query = signedB.slice(signedB.indexOf("?"));
    expect((await get(`/files/avatars/${keyA}${query}`)).status).toBe(403);
    // A's signature on another bucket.
    const signedA = await h.deps.storage.signedUrl("avatars", keyA);
    expect((await get(signedA.replace("/files/avatars/", "/files/enrollment_proofs/"))).status).toBe(403);
    // Tampered expiry.
    expect((await get(signedA.replace(/expires=\d+/, "expires=99999999999"))).status).toBe(403);
    // Path tricks and unknown buckets never reach the disk.
    expect((await get(`/files/avatars/${parentA.id}/..%2F..%2Fsecret`)).status).toBe(404);
    // fetch folds the dot segments into /etc/passwd: at most the web app's page (when a build is
    // there to serve), never a file from outside the store.
    const dotted = await get(`/files/avatars/../../etc/passwd`);
    expect([200, 404]).toContain(dotted.status);
    expect(Buffer.from(dotted.body).toString("utf8")).not.toContain("root:");
    expect((await get(`/files/nao-existe/${keyA}`)).status).toBe(404);
    // The owner's signed address works.
    expect((await get(signedA)).status).toBe(200);
    // Expired after 3600 s.
    h.clock.advance(3601 * 1000);
    expect((await get(signedA)).status).toBe(403);
  });
});
