// The cached-public-page baseline (issue 26): bare Fastify sending the same bytes and headers as the
// app's cached school page, read once from PAGE_FILE, at PAGE_PATH.
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const body = readFileSync(process.env.PAGE_FILE);
const etag = process.env.PAGE_ETAG ?? '"x"';
const app = Fastify({ logger: false });
app.get(process.env.PAGE_PATH, (_req, reply) =>
  reply.header("cache-control", "public, max-age=0, must-revalidate").header("etag", etag).header("vary", "accept-encoding").type("text/html; charset=utf-8").send(body),
);
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.send?.({ ready: app.server.address().port });
