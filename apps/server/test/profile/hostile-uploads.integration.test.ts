import { readdir } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { adminMessages, csvMessages, LIMITS, uploadMessages } from "@elo/shared";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { csvForm } from "../support/factories/admin";
import { pngBytes, pngDeclaring, uploadForm } from "../support/factories/files";
import { sessionCookie } from "../support/factories/sessions";
import { createSchool } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";
import { withServer, TEST_ORIGIN, type Harness, type TestServer } from "../support/harness";

/**
 * Hostile files: polyglots, decompression bombs, truncated multipart bodies and a CSV of 10,000
 * columns. Each is refused with a 4xx and a Portuguese message, nothing is stored, and the server
 * still answers afterwards (decision 096).
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

const invalidImage = { title: "Tipo de arquivo inválido", description: "Por favor, selecione uma imagem." };
const tooManyPixels = { title: uploadMessages.imageTooManyPixelsTitle, description: uploadMessages.imageTooManyPixelsDescription };

async function postAvatar(cookie: string, bytes: Buffer, name: string) {
  const res = await fetch(`${server.url}/api/uploads/avatar`, { method: "POST", headers: { cookie, origin: TEST_ORIGIN }, body: uploadForm(bytes, name) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function storedAvatars(userId: string) {
  return readdir(path.join(h.config.DATA_DIR, "storage", "avatars", userId)).then(
    (files) => files.filter((f) => !f.endsWith(".type")),
    () => [],
  );
}

async function alive() {
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}

async function parent() {
  const user = await createUser(h);
  return { user, cookie: await sessionCookie(h, user.id) };
}

const PNG_MAGIC = Buffer.from("89504e470d0a1a0a", "hex");
/** The classic GIF/JavaScript polyglot: the width bytes open a JS comment, the trailer closes it. */
const GIF_JS = Buffer.from("GIF89a/*\x0a\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;*/=1;alert(document.domain);", "latin1");

describe("polyglot images", () => {
  it("refuses PNG magic bytes followed by HTML (no image header behind the magic)", async () => {
    const { user, cookie } = await parent();
    const html = Buffer.concat([PNG_MAGIC, Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>")]);
    const res = await postAvatar(cookie, html, "foto.png");
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual(invalidImage);
    expect(await storedAvatars(user.id)).toEqual([]);
    await alive();
  });

  it("refuses a real PNG header carrying a script after it", async () => {
    const { user, cookie } = await parent();
    const res = await postAvatar(cookie, Buffer.concat([pngBytes(64), Buffer.from("<SCRIPT src=//evil.example/x.js></SCRIPT>")]), "foto.png");
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual(invalidImage);
    expect(await storedAvatars(user.id)).toEqual([]);
  });

  it("refuses a GIF/HTML polyglot", async () => {
    const { user, cookie } = await parent();
    const res = await postAvatar(cookie, Buffer.concat([GIF_JS, Buffer.from("<!DOCTYPE html><svg onload=alert(1)>")]), "a.gif");
    expect(res.status).toBe(415);
    expect(await storedAvatars(user.id)).toEqual([]);
  });

  it("a GIF/JS polyglot is a valid GIF: it is kept re-encoded, without its script, and served as an inert image/gif with nosniff", async () => {
    // Its JavaScript has no markup to spot: re-encoding keeps the pixels only (decision 110), and the
    // serving stays inert anyway (image/* under nosniff is not executable, and the CSP).
    const { cookie } = await parent();
    const res = await postAvatar(cookie, GIF_JS, "a.gif");
    expect(res.status).toBe(200);
    const served = await fetch(`${server.url}${res.body.avatarUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(Buffer.from(await served.arrayBuffer()).includes(Buffer.from("alert("))).toBe(false);
  });
});

describe("decompression bombs", () => {
  it("refuses a 300-byte PNG declaring 50000×50000 pixels with 413 and the Portuguese message", async () => {
    const { user, cookie } = await parent();
    const res = await postAvatar(cookie, pngDeclaring(50_000, 50_000, 300), "bomba.png");
    expect(res.status).toBe(413);
    expect(res.body.error).toEqual(tooManyPixels);
    expect(await storedAvatars(user.id)).toEqual([]);
    await alive();
  });

  it("accepts an image exactly at the pixel limit and refuses one pixel row more", async () => {
    const { cookie } = await parent();
    const width = 8000;
    const height = LIMITS.imageMaxPixels / width;
    // A real image (it is decoded and re-encoded): one colour, so 40 megapixels fit in a small PNG.
    const atLimit = await sharp({ create: { width, height, channels: 3, background: "#fff" } }).png().toBuffer();
    expect((await postAvatar(cookie, atLimit, "limite.png")).status).toBe(200);
    expect((await postAvatar(cookie, pngDeclaring(width, height + 1), "limite.png")).status).toBe(413);
  });

  it("refuses a bomb as a school logo uploaded by an admin", async () => {
    const admin = await h.caller((await createAdmin(h)).id);
    const school = await createSchool(h);
    const form = new FormData();
    form.append("schoolId", school.id);
    form.append("file", new File([new Uint8Array(pngDeclaring(60_000, 60_000))], "logo.png", { type: "image/png" }));
    await expect(admin.admin.schools.uploadLogo(form)).rejects.toMatchObject({ code: "BAD_REQUEST", toast: tooManyPixels });
    const html = new FormData();
    html.append("schoolId", school.id);
    html.append("file", new File([new Uint8Array(Buffer.concat([PNG_MAGIC, Buffer.from("<html></html>")]))], "logo.png", { type: "image/png" }));
    await expect(admin.admin.schools.uploadLogo(html)).rejects.toMatchObject({ toast: { title: adminMessages.logoBadType } });
  });
});

describe("truncated multipart bodies", () => {
  /** Sends a raw HTTP request and returns the status line (or "closed" if the server hung up). */
  function raw(head: string, body: Buffer, opts: { endAfter?: number } = {}) {
    return new Promise<string>((resolve) => {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname);
      let answer = "";
      socket.on("data", (d) => (answer += d.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve(answer.split("\r\n")[0] || "closed"));
      socket.write(head);
      socket.write(opts.endAfter === undefined ? body : body.subarray(0, opts.endAfter));
      // Half-close: the body is over for us, whatever Content-Length said.
      if (opts.endAfter !== undefined) socket.end();
      setTimeout(() => socket.destroy(), 5000);
    });
  }

  function multipart(bytes: Buffer) {
    const boundary = "----elo-hostile";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { boundary, body };
  }

  const head = (cookie: string, boundary: string, length: number) =>
    `POST /api/uploads/avatar HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\nCookie: ${cookie}\r\nConnection: close\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`;

  it("a body cut before its closing boundary (Content-Length matching the cut) answers 400 with the Portuguese message", async () => {
    const { user, cookie } = await parent();
    const { boundary, body } = multipart(pngBytes(2048));
    const cut = body.subarray(0, 1500);
    const res = await fetch(`${server.url}/api/uploads/avatar`, {
      method: "POST",
      headers: { cookie, origin: TEST_ORIGIN, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: cut,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toEqual({ title: uploadMessages.malformed });
    expect(await storedAvatars(user.id)).toEqual([]);
  });

  it("a client that promises more bytes than it sends and hangs up leaves nothing stored and the server answering", async () => {
    const { user, cookie } = await parent();
    const { boundary, body } = multipart(pngBytes(4096));
    const status = await raw(head(cookie, boundary, body.length), body, { endAfter: 1000 });
    // Either no answer at all or a 4xx: never a 5xx, never a stored file.
    expect(status === "closed" || /^HTTP\/1\.1 4\d\d/.test(status), status).toBe(true);
    expect(await storedAvatars(user.id)).toEqual([]);
    await alive();
    // The same request, whole, still works: the refused one left nothing half-open behind.
    expect(await raw(head(cookie, boundary, body.length), body)).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("a CSV of 10,000 columns", () => {
  it("is refused with a clear message before its rows are parsed, and the server keeps answering", async () => {
    const admin = await h.caller((await createAdmin(h)).id);
    const header = ["name", ...Array.from({ length: 9_999 }, (_, i) => `c${i}`)].join(",");
    const row = ["Escola Larga", ...Array.from({ length: 9_999 }, () => "x")].join(",");
    const csv = `${header}\n${row}\n${row}\n`;
    const started = Date.now();
    await expect(admin.admin.csv.preview(csvForm(csv))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      toast: { title: adminMessages.csvParseError(csvMessages.tooManyColumns(10_000, LIMITS.csvMaxColumns)) },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await alive();
  });
});
