import { randomBytes } from "node:crypto";
import fastifyMultipart from "@fastify/multipart";
import { accessMessages, adminMessages, LIMITS, profileMessages, schoolMessages, uploadMessages, type Toast } from "@elo/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import { imageProblem, reencodeImage, tooManyPixels } from "./image-check";
import type { SessionUser } from "../auth/session";
import type { AppDeps } from "../deps";
import type { Bucket } from "../storage/storage";
import { authenticate, replyCookieJar } from "./context";

/** What an upload may be: its byte limit, the real types allowed, and the toasts for each refusal. */
export interface UploadRule {
  maxBytes: number;
  /** MIME types as detected from the bytes (never the declared type or the file name). */
  types: readonly string[];
  tooLarge: Toast;
  invalidType: Toast;
  /** The answer when no file arrives (default: the generic 'Nenhum arquivo recebido'). */
  noFile?: Toast;
  /** The answer without a session (default: 'Você precisa estar logado.'). */
  unauthenticated?: Toast;
}

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

/** The upload rules of the product (DECISIONS "Files"). */
export const UPLOAD_RULES = {
  avatar: {
    maxBytes: LIMITS.avatarMaxBytes,
    types: IMAGE_TYPES,
    tooLarge: { title: profileMessages.avatarTooLargeTitle, description: profileMessages.avatarTooLargeDescription },
    invalidType: { title: profileMessages.avatarInvalidTypeTitle, description: profileMessages.avatarInvalidTypeDescription },
  },
  enrollmentProof: {
    maxBytes: LIMITS.proofMaxBytes,
    types: ["image/jpeg", "image/png", "application/pdf"],
    tooLarge: { title: profileMessages.avatarTooLargeTitle, description: profileMessages.proofTooLarge },
    invalidType: { title: profileMessages.avatarInvalidTypeTitle, description: profileMessages.proofInvalidType },
    // Spec 1 §5/§8 word these two for the proof.
    noFile: { title: profileMessages.proofErrorTitle, description: profileMessages.proofSelectFile },
    unauthenticated: { title: profileMessages.proofErrorTitle, description: accessMessages.userNotAuthenticated },
  },
  schoolLogo: {
    maxBytes: LIMITS.schoolLogoMaxBytes,
    types: IMAGE_TYPES,
    tooLarge: { title: profileMessages.avatarTooLargeTitle, description: schoolMessages.logoTooLarge },
    invalidType: { title: profileMessages.avatarInvalidTypeTitle, description: profileMessages.avatarInvalidTypeDescription },
  },
  adminLogo: {
    maxBytes: LIMITS.adminLogoMaxBytes,
    types: ["image/jpeg", "image/png", "image/webp"],
    tooLarge: { title: adminMessages.logoTooLarge },
    invalidType: { title: adminMessages.logoBadType },
  },
} as const satisfies Record<string, UploadRule>;

/** One uploaded file, read whole and checked. */
export interface UploadedFile {
  bytes: Buffer;
  /** Detected from the bytes. */
  mime: string;
  /** Extension for the detected type (jpg, png, webp, gif, pdf). */
  ext: string;
  /** The client's file name: for display and e-mails only, never for storage keys. */
  clientName: string;
}

/** A refusal with its HTTP status and Portuguese toast; the route answers `{ error: toast }`. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly toast: Toast,
  ) {
    super(toast.description ? `${toast.title}: ${toast.description}` : toast.title);
  }
}

/** File-name extensions that agree with each detected type. */
const EXTENSIONS: Record<string, string[]> = {
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "image/gif": ["gif"],
  "application/pdf": ["pdf"],
};

/** Bytes a multipart envelope may add around the file (boundaries, headers, a few small fields). */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Reads the one file of a multipart request under `rule`: a file over the limit is refused with 413
 * (from Content-Length when possible, otherwise while streaming) and the real type is checked from
 * the bytes (415). Text fields sent BEFORE the file in the form are returned in `fields`.
 */
export async function readUpload(req: FastifyRequest, rule: UploadRule): Promise<{ file: UploadedFile; fields: Record<string, string> }> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > rule.maxBytes + ENVELOPE_BYTES) throw new UploadError(413, rule.tooLarge);
  if (!req.isMultipart()) throw new UploadError(400, noFileToast(rule));

  let part;
  try {
    part = await req.file({ limits: { fileSize: rule.maxBytes, files: 1, fields: 10, fieldSize: 1000, parts: 11 } });
  } catch (error) {
    throw asUploadError(error, rule);
  }
  if (!part) throw new UploadError(400, noFileToast(rule));
  // Keys never come from the name, but a name that tries to walk paths is refused outright.
  if (/[\\/\0]|^\.\.?$/.test(part.filename)) {
    part.file.resume();
    throw new UploadError(400, { title: uploadMessages.badFileName });
  }

  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    throw asUploadError(error, rule);
  }
  if (part.file.truncated) throw new UploadError(413, rule.tooLarge);
  if (bytes.length === 0) throw new UploadError(400, noFileToast(rule));

  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !rule.types.includes(detected.mime)) throw new UploadError(415, rule.invalidType);
  // A name whose extension claims another type (a PNG renamed .pdf) is refused as well.
  const claimed = /\.([A-Za-z0-9]{1,8})$/.exec(part.filename)?.[1]?.toLowerCase();
  if (claimed && !(EXTENSIONS[detected.mime] ?? [detected.ext]).includes(claimed)) throw new UploadError(415, rule.invalidType);

  if (detected.mime.startsWith("image/")) bytes = await cleanImage(bytes, detected.mime, rule);

  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const f = Array.isArray(value) ? value[0] : value;
    if (f && f.type === "field" && typeof f.value === "string") fields[name] = f.value;
  }
  return { file: { bytes, mime: detected.mime, ext: detected.ext, clientName: part.filename.slice(0, 200) }, fields };
}

const noFileToast = (rule: UploadRule): Toast => rule.noFile ?? { title: uploadMessages.noFile };

/** Checks an image's header (decision 096), then re-encodes it without metadata (decision 110). */
async function cleanImage(bytes: Buffer, mime: string, rule: UploadRule): Promise<Buffer> {
  const problem = imageProblem(bytes);
  if (problem === "too_many_pixels") throw new UploadError(413, tooManyPixels);
  const clean = problem ? null : await reencodeImage(bytes, mime);
  if (!clean) throw new UploadError(415, rule.invalidType);
  return clean;
}

function asUploadError(error: unknown, rule: UploadRule): UploadError {
  if (error instanceof UploadError) return error;
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return new UploadError(413, rule.tooLarge);
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") return new UploadError(413, { title: uploadMessages.oneFileOnly });
  if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") return new UploadError(400, noFileToast(rule));
  return new UploadError(400, { title: uploadMessages.malformed });
}

/**
 * A fresh storage key `<prefix>/<name>-<time>-<random>.<ext>` made by the server; the prefix is
 * usually the owner's id (a uuid) and `name` a fixed word such as "avatar" or "enrollment-2".
 */
export function storageKey(prefix: string, name: string, file: Pick<UploadedFile, "ext">, now: Date): string {
  return `${prefix}/${name}-${now.getTime()}-${randomBytes(4).toString("hex")}.${file.ext}`;
}

/** What an upload handler receives: the deps, the signed-in user and the checked file. */
export interface UploadContext {
  deps: AppDeps;
  user: SessionUser;
  file: UploadedFile;
  fields: Record<string, string>;
  req: FastifyRequest;
}

export interface UploadRouteOptions {
  /**
   * Who may upload: return a toast to refuse with 403 (the session is already checked). Runs before
   * the body is read, so a refused caller never gets a byte stored; it may query the database.
   */
  authorize?: (user: SessionUser, deps: AppDeps) => Toast | null | Promise<Toast | null>;
}

/**
 * Registers `POST path` for one file under `rule`, authenticated by the session cookie (401
 * otherwise) and covered by the global Origin check. The handler stores the file (usually
 * `deps.storage.put(bucket, storageKey(...), file.bytes, file.mime)`), updates its rows and
 * returns the JSON answer; it may throw `UploadError` for a domain refusal. Any failure answers
 * `{ error: { title, description } }` in Portuguese and nothing is stored before the checks pass.
 *
 * @example
 * uploadRoute(app, deps, "/api/uploads/school-logo", UPLOAD_RULES.schoolLogo, saveSchoolLogo, { authorize: staffOnly });
 * // browser: uploadFile("/api/uploads/school-logo", file) from apps/web/src/lib/upload.ts
 */
export function uploadRoute(
  app: FastifyInstance,
  deps: AppDeps,
  path: string,
  rule: UploadRule,
  handler: (upload: UploadContext) => Promise<unknown>,
  options: UploadRouteOptions = {},
) {
  app.post(path, async (req, reply) => {
    try {
      const { user } = await authenticate(deps, req, replyCookieJar(deps, req, reply));
      if (!user) throw new UploadError(401, rule.unauthenticated ?? { title: accessMessages.notLoggedIn });
      const refusal = await options.authorize?.(user, deps);
      if (refusal) throw new UploadError(403, refusal);
      const { file, fields } = await readUpload(req, rule);
      const result = await handler({ deps, user, file, fields, req });
      return reply.code(200).send(result ?? { ok: true });
    } catch (error) {
      return sendUploadError(reply, deps, error, path);
    }
  });
}

function sendUploadError(reply: FastifyReply, deps: AppDeps, error: unknown, path: string) {
  if (error instanceof UploadError) {
    // The client may still be sending the rest of a refused body: close instead of draining it.
    if (error.status === 413) reply.header("connection", "close");
    return reply.code(error.status).send({ error: error.toast });
  }
  deps.logger.error({ err: error, path }, "upload failed");
  return reply.code(500).send({ error: { title: uploadMessages.uploadFailed } });
}

/** Registers the multipart parser (once, before any upload route). */
export async function registerMultipart(app: FastifyInstance) {
  await app.register(fastifyMultipart, {
    // Keep the client's path in the name so that path tricks are seen and refused (never used for keys).
    preservePath: true,
    limits: { fileSize: Math.max(...Object.values(UPLOAD_RULES).map((r) => r.maxBytes), LIMITS.csvMaxBytes), files: 1, fields: 10, fieldSize: 1000, parts: 11 },
  });
}

/** Buckets whose keys start with the owner's user id (the rule for "whose file is this"). */
export const ownsKey = (userId: string, key: string | null | undefined): key is string => !!key && key.startsWith(`${userId}/`);

export type { Bucket };
