import { readdir } from "node:fs/promises";
import path from "node:path";
import { schema } from "@elo/db";
import { LIMITS } from "@elo/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";
import { jpegBytes, pdfBytes, pngBytes, uploadForm } from "../support/factories/files";
import { sessionCookie } from "../support/factories/sessions";
import { createSchool, createStaff } from "../support/factories/schools";
import { createUser } from "../support/factories/users";

let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

async function post(route: string, cookie: string | null, form: FormData, origin: string | null = TEST_ORIGIN) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  const res = await fetch(`${server.url}${route}`, { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Every file stored for a user in a bucket. */
async function storedFiles(bucket: string, userId: string) {
  try {
    return (await readdir(path.join(h.config.DATA_DIR, "storage", bucket, userId))).filter((f) => !f.endsWith(".type"));
  } catch {
    return [];
  }
}

async function completeParent() {
  const school = await createSchool(h);
  return createUser(h, { profile: { studentName: "Ana Souza", schoolId: school.id, schoolName: school.name } });
}

describe("avatar upload", () => {
  it("stores an image under a server key, signs it, and replaces the old file", async () => {
    const user = await createUser(h);
    const cookie = await sessionCookie(h, user.id);
    const first = await post("/api/uploads/avatar", cookie, uploadForm(pngBytes(), "minha foto.png"));
    expect(first.status).toBe(200);
    expect(first.body.avatarUrl).toMatch(new RegExp(`^/files/avatars/${user.id}/avatar-\\d+-[0-9a-f]{8}\\.png\\?expires=\\d+&signature=`));
    expect((await fetch(`${server.url}${first.body.avatarUrl}`)).status).toBe(200);
    const second = await post("/api/uploads/avatar", cookie, uploadForm(jpegBytes(), "outra.jpg"));
    expect(second.status).toBe(200);
    expect(await storedFiles("avatars", user.id)).toHaveLength(1);
    const [profile] = await h.db.select({ avatarUrl: schema.profiles.avatarUrl }).from(schema.profiles).where(eq(schema.profiles.userId, user.id));
    expect(profile!.avatarUrl).toMatch(/\.jpg$/);
  });

  it("refuses 2 MB + 1 byte with 413 and stores nothing", async () => {
    const user = await createUser(h);
    const res = await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pngBytes(LIMITS.avatarMaxBytes + 1), "grande.png"));
    expect(res.status).toBe(413);
    expect(res.body.error).toEqual({ title: "Arquivo muito grande", description: "A imagem deve ter no máximo 2MB." });
    expect(await storedFiles("avatars", user.id)).toEqual([]);
  });

  it("accepts exactly 2 MB", async () => {
    const user = await createUser(h);
    const res = await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pngBytes(LIMITS.avatarMaxBytes), "limite.png"));
    expect(res.status).toBe(200);
  });

  it("refuses a PDF named .png (type from the bytes) with the spec's message", async () => {
    const user = await createUser(h);
    const res = await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pdfBytes(), "foto.png", {}, "image/png"));
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual({ title: "Tipo de arquivo inválido", description: "Por favor, selecione uma imagem." });
    expect(await storedFiles("avatars", user.id)).toEqual([]);
  });

  it("refuses a file name that walks paths, and stores nothing", async () => {
    const user = await createUser(h);
    const res = await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pngBytes(), "../../x"));
    expect(res.status).toBe(400);
    expect(await storedFiles("avatars", user.id)).toEqual([]);
  });

  it("needs a session and an allowed Origin", async () => {
    const user = await createUser(h);
    expect((await post("/api/uploads/avatar", null, uploadForm(pngBytes(), "a.png"))).status).toBe(401);
    expect((await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pngBytes(), "a.png"), "https://evil.example")).status).toBe(403);
    expect((await post("/api/uploads/avatar", await sessionCookie(h, user.id), uploadForm(pngBytes(), "a.png"), null)).status).toBe(403);
    expect(await storedFiles("avatars", user.id)).toEqual([]);
  });

  it("answers 400 with a Portuguese message when no file is sent", async () => {
    const user = await createUser(h);
    const form = new FormData();
    form.append("x", "y");
    const res = await post("/api/uploads/avatar", await sessionCookie(h, user.id), form);
    expect(res.status).toBe(400);
    expect(res.body.error.title).toMatch(/Nenhum arquivo/);
  });
});

describe("enrollment proof upload", () => {
  it("stores a PDF, marks the proof submitted, removes the old file and e-mails the admin a signed link", async () => {
    const user = await completeParent();
    const cookie = await sessionCookie(h, user.id);
    const first = await post("/api/uploads/enrollment-proof", cookie, uploadForm(pdfBytes(), "comprovante.pdf"));
    expect(first.status).toBe(200);
    const second = await post("/api/uploads/enrollment-proof", cookie, uploadForm(pngBytes(), "comprovante.png"));
    expect(second.status).toBe(200);
    expect(await storedFiles("enrollment_proofs", user.id)).toHaveLength(1);
    const [p] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, user.id));
    expect(p!.enrollmentProofSubmitted).toBe(true);
    expect(p!.enrollmentProofUrl).toMatch(new RegExp(`^${user.id}/proof-\\d+-[0-9a-f]{8}\\.png$`));
    const mails = await h.db.select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "enrollment-proof"));
    const mine = mails.filter((m) => m.text?.includes(user.email));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.to).toBe(h.config.ADMIN_EMAIL);
    expect(mine[1]!.text).toContain(`${TEST_ORIGIN}/files/enrollment_proofs/${p!.enrollmentProofUrl}?expires=`);
    expect(mine[1]!.text).toContain("Ana Souza");
  });

  it("refuses a PNG renamed .pdf, and a GIF even when named .pdf", async () => {
    const user = await completeParent();
    const cookie = await sessionCookie(h, user.id);
    const renamed = await post("/api/uploads/enrollment-proof", cookie, uploadForm(pngBytes(), "comprovante.pdf", {}, "application/pdf"));
    expect(renamed.status).toBe(415);
    expect(renamed.body.error).toEqual({ title: "Tipo de arquivo inválido", description: "Envie um arquivo JPG, PNG ou PDF." });
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(100)]);
    const res = await post("/api/uploads/enrollment-proof", cookie, uploadForm(gif, "comprovante.pdf", {}, "application/pdf"));
    expect(res.status).toBe(415);
    expect(res.body.error.description).toBe("Envie um arquivo JPG, PNG ou PDF.");
    expect(await storedFiles("enrollment_proofs", user.id)).toEqual([]);
  });

  it("enforces 5 MB with 413 and stores nothing", async () => {
    const user = await completeParent();
    const res = await post("/api/uploads/enrollment-proof", await sessionCookie(h, user.id), uploadForm(pngBytes(LIMITS.proofMaxBytes + 1), "grande.png"));
    expect(res.status).toBe(413);
    expect(await storedFiles("enrollment_proofs", user.id)).toEqual([]);
  });

  it("needs the saved student and school names for the main proof", async () => {
    const user = await createUser(h);
    const res = await post("/api/uploads/enrollment-proof", await sessionCookie(h, user.id), uploadForm(pdfBytes(), "c.pdf"));
    expect(res.status).toBe(400);
    expect(res.body.error.description).toBe("Preencha o nome do aluno e escolha a escola antes de enviar o comprovante.");
    expect(await storedFiles("enrollment_proofs", user.id)).toEqual([]);
  });

  it("puts an other-enrollment proof on that enrollment, and refuses someone else's enrollment", async () => {
    const user = await completeParent();
    const stranger = await completeParent();
    const school = await createSchool(h, { niche: "Idiomas" });
    const [enrollment] = await h.db.insert(schema.enrollments).values({ userId: user.id, schoolId: school.id, institutionName: school.name }).returning();
    const ok = await post("/api/uploads/enrollment-proof", await sessionCookie(h, user.id), uploadForm(pdfBytes(), "c.pdf", { enrollmentId: enrollment!.id }));
    expect(ok.status).toBe(200);
    const [row] = await h.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, enrollment!.id));
    expect(row!.proofUrl).toMatch(new RegExp(`^${user.id}/enrollment-1-`));
    const refused = await post("/api/uploads/enrollment-proof", await sessionCookie(h, stranger.id), uploadForm(pdfBytes(), "c.pdf", { enrollmentId: enrollment!.id }));
    expect(refused.status).toBe(404);
    expect(await storedFiles("enrollment_proofs", stranger.id)).toEqual([]);
  });

  it("answers the spec's 'Selecione um arquivo antes de enviar' when no file arrives, and stores nothing", async () => {
    const user = await completeParent();
    const cookie = await sessionCookie(h, user.id);
    const fieldsOnly = new FormData();
    fieldsOnly.append("enrollmentId", "");
    const expected = { title: "Erro ao enviar", description: "Selecione um arquivo antes de enviar" };
    const none = await post("/api/uploads/enrollment-proof", cookie, fieldsOnly);
    expect(none.status).toBe(400);
    expect(none.body.error).toEqual(expected);
    const empty = await post("/api/uploads/enrollment-proof", cookie, uploadForm(Buffer.alloc(0), "vazio.pdf"));
    expect(empty.status).toBe(400);
    expect(empty.body.error).toEqual(expected);
    expect(await storedFiles("enrollment_proofs", user.id)).toEqual([]);
    const [p] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, user.id));
    expect(p!.enrollmentProofSubmitted).toBe(false);
  });

  it("answers 'Usuário não autenticado' without a session", async () => {
    const res = await post("/api/uploads/enrollment-proof", null, uploadForm(pdfBytes(), "c.pdf"));
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ title: "Erro ao enviar", description: "Usuário não autenticado" });
  });

  it("is for parents only", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const res = await post("/api/uploads/enrollment-proof", await sessionCookie(h, staff.id), uploadForm(pdfBytes(), "c.pdf"));
    expect(res.status).toBe(403);
  });
});

describe("signed addresses", () => {
  it("refuses a signature moved to someone else's proof, and an expired one", async () => {
    const a = await completeParent();
    const b = await completeParent();
    await post("/api/uploads/enrollment-proof", await sessionCookie(h, a.id), uploadForm(pdfBytes(), "a.pdf"));
    await post("/api/uploads/enrollment-proof", await sessionCookie(h, b.id), uploadForm(pdfBytes(), "b.pdf"));
    const [pa] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, a.id));
    const [pb] = await h.db.select().from(schema.profiles).where(eq(schema.profiles.userId, b.id));
    const signedA = await h.deps.storage.signedUrl("enrollment_proofs", pa!.enrollmentProofUrl!);
    expect((await fetch(`${server.url}${signedA}`)).status).toBe(200);
    const moved = signedA.replace(pa!.enrollmentProofUrl!, pb!.enrollmentProofUrl!);
    expect((await fetch(`${server.url}${moved}`)).status).toBe(403);
    h.clock.advance((LIMITS.signedUrlSeconds + 5) * 1000);
    try {
      expect((await fetch(`${server.url}${signedA}`)).status).toBe(403);
    } finally {
      h.clock.advance(-(LIMITS.signedUrlSeconds + 5) * 1000);
    }
  });
});
