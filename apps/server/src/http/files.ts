import type { FastifyInstance } from "fastify";
import { BUCKETS, contentDisposition, isSafeKey, PUBLIC_BUCKETS, type Bucket } from "../storage/storage";
import type { AppDeps } from "../deps";

/** GET /files/:bucket/*: public buckets freely, private ones only with a valid, unexpired signature. */
export function registerFileRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { bucket: string; "*": string }; Querystring: { expires?: string; signature?: string } }>(
    "/files/:bucket/*",
    async (req, reply) => {
      const bucket = req.params.bucket as Bucket;
      const key = req.params["*"];
      if (!BUCKETS.includes(bucket) || !isSafeKey(key)) return reply.code(404).send({ error: "Arquivo não encontrado" });
      if (!PUBLIC_BUCKETS.has(bucket)) {
        const expires = Number(req.query.expires);
        if (!req.query.signature || !deps.storage.verify(bucket, key, expires, req.query.signature, deps.clock.now().getTime())) {
          return reply.code(403).send({ error: "Link expirado ou inválido" });
        }
      }
      const file = await deps.storage.get(bucket, key);
      if (!file) return reply.code(404).send({ error: "Arquivo não encontrado" });
      return reply
        .header("content-type", file.contentType)
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", contentDisposition(bucket, key))
        .header("cache-control", PUBLIC_BUCKETS.has(bucket) ? "public, max-age=3600" : "private, max-age=3600")
        .send(file.bytes);
    },
  );
}
