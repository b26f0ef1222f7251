import { adminMessages, profileMessages } from "@elo/shared";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { exifSegment, jpegSegment, pdfBytes, pngChunk, pngDeclaring, uploadForm, withJpegSegments, withPngChunks } from "../support/factories/files";
import { createSchool, createStaff } from "../support/factories/schools";
import { sessionCookie } from "../support/factories/sessions";
import { createAdmin, createUser } from "../support/factories/users";
import { withServer, type Harness, type TestServer } from "../support/harness";
import { getFile, postUpload, trpcMutation } from "../support/http-client";

/**
 * What an uploaded file tells whoever views it (decision 110). Images are re-encoded: a phone photo's
 * EXIF (GPS position, camera, time) and any other metadata or appended payload are gone, and its
 * orientation is applied to the pixels. PDFs keep their bytes. Enrollment proofs are served as a
 * download with a fixed file name; images are shown inline.
 */
let h: Harness;
let server: TestServer;
withServer((s) => ({ h, server } = s));

/** Where the photo was taken (Avenida Paulista): what must not reach a viewer. */
const WHERE = { latitude: -23.5613, longitude: -46.6565 };

/** A 40×20 JPEG that a phone held upright stored sideways: EXIF Orientation 6 and a GPS position. */
async function phonePhoto() {
  const pixels = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#3366cc" } }).jpeg().toBuffer();
  const photo = withJpegSegments(pixels, exifSegment({ orientation: 6, ...WHERE }));
  const meta = await sharp(photo).metadata();
  expect({ orientation: meta.orientation, exif: !!meta.exif }).toEqual({ orientation: 6, exif: true });
  return photo;
}

/** Bytes found in the stored file only if the metadata survived. */
const EXIF_MARKERS = ["Exif\0\0", "II*\0"];

async function expectCleanImage(bytes: Buffer, format: string, size: { width: number; height: number }) {
  for (const marker of EXIF_MARKERS) expect(bytes.includes(Buffer.from(marker, "latin1")), `${JSON.stringify(marker)} still in the file`).toBe(false);
  const meta = await sharp(bytes).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height, orientation: meta.orientation, exif: meta.exif, xmp: meta.xmp, comments: meta.comments }).toEqual({
    format,
    ...size,
    orientation: undefined,
    exif: undefined,
    xmp: undefined,
    comments: undefined,
  });
}

async function parentCookie(profile: Record<string, unknown> = {}) {
  const school = await createSchool(h);
  const user = await createUser(h, { profile: { studentName: "Ana Souza", schoolId: school.id, schoolName: school.name, ...profile } });
  return sessionCookie(h, user.id);
}

describe("uploaded images lose their metadata, keep their orientation", () => {
  it("an avatar from a phone: GPS and EXIF gone, turned upright (20×40), served inline", async () => {
    const cookie = await parentCookie();
    const res = await postUpload(server, "/api/uploads/avatar", cookie, uploadForm(await phonePhoto(), "IMG_0001.jpg", {}, "image/jpeg"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.avatarUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("content-disposition")).toBe("inline");
    await expectCleanImage(served.bytes, "jpeg", { width: 20, height: 40 });
  });

  it("a PNG avatar: text, EXIF and private chunks gone", async () => {
    const cookie = await parentCookie();
    const base = await sharp({ create: { width: 8, height: 6, channels: 4, background: "#ffcc00" } }).png().toBuffer();
    const tiff = exifSegment({ orientation: 1, ...WHERE }).subarray(10);
    const png = withPngChunks(base, pngChunk("tEXt", Buffer.from("Location\0Rua das Flores, 123", "latin1")), pngChunk("eXIf", tiff), pngChunk("prVt", Buffer.from("segredo")));
    const res = await postUpload(server, "/api/uploads/avatar", cookie, uploadForm(png, "foto.png", {}, "image/png"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.avatarUrl);
    for (const text of ["tEXt", "eXIf", "prVt", "Rua das Flores", "segredo"]) expect(served.bytes.includes(Buffer.from(text)), text).toBe(false);
    await expectCleanImage(served.bytes, "png", { width: 8, height: 6 });
  });

  it("a JPEG carrying a script in a comment segment (an image/JS polyglot) is stored without it", async () => {
    const cookie = await parentCookie();
    const pixels = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } }).jpeg().toBuffer();
    const polyglot = withJpegSegments(pixels, jpegSegment(0xfe, Buffer.from("*/=1;alert(document.domain);/*")));
    const res = await postUpload(server, "/api/uploads/avatar", cookie, uploadForm(polyglot, "a.jpg"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.avatarUrl);
    expect(served.bytes.includes(Buffer.from("alert("))).toBe(false);
    await expectCleanImage(served.bytes, "jpeg", { width: 4, height: 4 });
  });

  it("a school logo uploaded by staff is cleaned as well", async () => {
    const school = await createSchool(h);
    const staff = await createStaff(h, school.id);
    const res = await postUpload(server, "/api/uploads/school-logo", await sessionCookie(h, staff.id), uploadForm(await phonePhoto(), "logo.jpg"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.logoUrl);
    expect(served.headers.get("content-disposition")).toBe("inline");
    await expectCleanImage(served.bytes, "jpeg", { width: 20, height: 40 });
  });

  it("a school logo uploaded by an admin (tRPC multipart) is cleaned as well", async () => {
    const school = await createSchool(h);
    const form = uploadForm(await phonePhoto(), "logo.jpg", { schoolId: school.id }, "image/jpeg");
    const res = await trpcMutation(server, "admin.schools.uploadLogo", form, await sessionCookie(h, (await createAdmin(h)).id));
    expect(res.status).toBe(200);
    const served = await getFile(server, (res.body.result!.data as { logoUrl: string }).logoUrl);
    await expectCleanImage(served.bytes, "jpeg", { width: 20, height: 40 });
  });

  it("an image that cannot be decoded is refused as not an image, and nothing is stored", async () => {
    const cookie = await parentCookie();
    // A PNG header declaring 10×10 followed by no image data: it passes the magic-byte and size checks.
    const res = await postUpload(server, "/api/uploads/avatar", cookie, uploadForm(pngDeclaring(10, 10), "vazia.png"));
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual({ title: profileMessages.avatarInvalidTypeTitle, description: profileMessages.avatarInvalidTypeDescription });
    const admin = await sessionCookie(h, (await createAdmin(h)).id);
    const logo = await trpcMutation(server, "admin.schools.uploadLogo", uploadForm(pngDeclaring(10, 10), "logo.png", { schoolId: (await createSchool(h)).id }), admin);
    expect(logo.status).toBe(400);
    expect(logo.body.error?.data.toast).toEqual({ title: adminMessages.logoBadType });
  });
});

describe("enrollment proofs are private documents: downloaded, never shown inline", () => {
  it("a photographed proof loses its metadata and is served as attachment; filename=\"comprovante.jpg\"", async () => {
    const cookie = await parentCookie();
    const res = await postUpload(server, "/api/uploads/enrollment-proof", cookie, uploadForm(await phonePhoto(), "Matrícula da Ana (São Paulo).jpg"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.proofUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toBe('attachment; filename="comprovante.jpg"');
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    await expectCleanImage(served.bytes, "jpeg", { width: 20, height: 40 });
  });

  it("a PDF proof keeps its bytes and is served as attachment; filename=\"comprovante.pdf\"", async () => {
    const cookie = await parentCookie();
    const res = await postUpload(server, "/api/uploads/enrollment-proof", cookie, uploadForm(pdfBytes(), "comprovante final.pdf"));
    expect(res.status).toBe(200);
    const served = await getFile(server, res.body.proofUrl);
    expect(served.headers.get("content-disposition")).toBe('attachment; filename="comprovante.pdf"');
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.bytes.equals(pdfBytes())).toBe(true);
  });
});
