// The framework-tax baseline: a bare Fastify route answering what `auth.me` answers to a visitor.
import Fastify from "fastify";

const body = JSON.stringify({ result: { data: { json: null } } });
const app = Fastify({ logger: false });
app.get("/trpc/auth.me", (_req, reply) => reply.type("application/json").send(body));
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.send?.({ ready: app.server.address().port });
