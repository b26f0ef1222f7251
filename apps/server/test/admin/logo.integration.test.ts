import { schema } from "@elo/db";
import { accessMessages, adminMessages } from "@elo/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { createSchool } from "../support/factories/schools";
import { createAdmin, createUser } from "../support/factories/users";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

let h: Harness;
let admin: Awaited<ReturnType<Harness["caller"]>>;
beforeAll(async () => {
  h = await createHarness();
  admin = await h.caller((await createAdmin(h)).id);
});
afterAll(() => h.close());

function logoForm(schoolId: string, bytes: Buffer, name = "logo.png", type = "image/png") {
  const form = new FormData();
  form.append("schoolId", schoolId);
  form.append("file", new File([new Uint8Array(bytes)], name, { type }));
  return form;
}
const toastOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { toast?: { title: string } }) => e.toast ?? null,
  );

describe("admin.schools.uploadLogo", () => {
  it("stores a PNG judged by its bytes and replaces the previous file", async () => {
    const school = await createSchool(h);
    const first = await admin.admin.schools.uploadLogo(logoForm(school.id, PNG_1X1));
    expect(first.logoUrl).toMatch(new RegExp(`^/files/school_logos/${school.id}/\\d+\\.png$`));
    const [row] = await h.db.select({ logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.id, school.id));
    expect((await h.deps.storage.get("school_logos", row!.logoUrl!))!.contentType).toBe("image/png");
    h.clock.advance(1000);
    await admin.admin.schools.uploadLogo(logoForm(school.id, PNG_1X1, "outra.webp", "image/webp"));
    expect(await h.deps.storage.get("school_logos", row!.logoUrl!)).toBeNull();
  });

  it("refuses a file over 5 MB and anything that is not JPEG, PNG or WEBP by its bytes", async () => {
    const school = await createSchool(h);
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)]);
    expect((await toastOf(admin.admin.schools.uploadLogo(logoForm(school.id, big))))!.title).toBe(adminMessages.logoTooLarge);
    expect((await toastOf(admin.admin.schools.uploadLogo(logoForm(school.id, GIF_1X1))))!.title).toBe(adminMessages.logoBadType);
    expect((await toastOf(admin.admin.schools.uploadLogo(logoForm(school.id, Buffer.from("<svg></svg>"), "logo.png"))))!.title).toBe(adminMessages.logoBadType);
    const [row] = await h.db.select({ logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.id, school.id));
    expect(row!.logoUrl).toBeNull();
  });

  it("refuses non-admins", async () => {
    const school = await createSchool(h);
    const parent = await h.caller((await createUser(h)).id);
    expect((await toastOf(parent.admin.schools.uploadLogo(logoForm(school.id, PNG_1X1))))!.title).toBe(accessMessages.adminOnly);
    const anonymous = await h.caller(null);
    expect((await toastOf(anonymous.admin.schools.uploadLogo(logoForm(school.id, PNG_1X1))))!.title).toBe(accessMessages.unauthenticated);
  });
});
