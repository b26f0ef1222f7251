import { schema } from "@elo/db";
import { adminMessages, adminQueueMessages, LIMITS } from "@elo/shared";
import { eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { z } from "zod";
import { imageProblem, reencodeImage, tooManyPixels } from "../../http/image-check";
import { AppError } from "../../trpc/errors";
import type { AdminCtx } from "./admin.types";
import { isStoredLogo, logoAddress } from "./logo-url";

const ADMIN_LOGO_TYPES = new Set(["image/jpeg", "image/png", "image/webp"]);
const schoolIdField = z.uuid();

/**
 * Admin logo upload (multipart: `schoolId`, `file`): at most 5 MB, JPEG/PNG/WEBP judged by the
 * bytes. Stored as `<school id>/<timestamp>.<ext>`; the previous stored file is removed.
 */
export async function uploadLogoHandler({ ctx, input }: { ctx: AdminCtx; input: FormData }) {
  const schoolId = schoolIdField.safeParse(input.get("schoolId"));
  const file = input.get("file");
  if (!schoolId.success || !(file instanceof Blob)) throw new AppError("BAD_REQUEST", adminMessages.logoUploadError);
  if (file.size > LIMITS.adminLogoMaxBytes) throw new AppError("BAD_REQUEST", adminMessages.logoTooLarge);
  const upload = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(upload);
  if (!type || !ADMIN_LOGO_TYPES.has(type.mime)) throw new AppError("BAD_REQUEST", adminMessages.logoBadType);
  const problem = imageProblem(upload);
  if (problem === "too_many_pixels") throw new AppError("BAD_REQUEST", tooManyPixels);
  // Stored re-encoded, without the metadata a photo carries (decision 110).
  const bytes = problem ? null : await reencodeImage(upload, type.mime);
  if (!bytes) throw new AppError("BAD_REQUEST", adminMessages.logoBadType);

  const [school] = await ctx.db.select({ logoUrl: schema.schools.logoUrl }).from(schema.schools).where(eq(schema.schools.id, schoolId.data));
  if (!school) throw new AppError("NOT_FOUND", { title: adminMessages.logoUploadError, description: adminQueueMessages.schoolNotFound });
  const key = `${schoolId.data}/${ctx.clock.now().getTime()}.${type.ext}`;
  await ctx.storage.put("school_logos", key, bytes, type.mime);
  await ctx.db.update(schema.schools).set({ logoUrl: key, updatedAt: ctx.clock.now() }).where(eq(schema.schools.id, schoolId.data));
  if (isStoredLogo(school.logoUrl) && school.logoUrl !== key) {
    await ctx.storage.remove("school_logos", school.logoUrl).catch((err) => ctx.logger.warn({ err }, "old logo file left behind"));
  }
  return { logoUrl: logoAddress(ctx.storage, key) };
}
