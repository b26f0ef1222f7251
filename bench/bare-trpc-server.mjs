// The framework-tax floor: tRPC's Fastify adapter alone (superjson, one query answering null, as
// `auth.me` answers a visitor), with none of the app's hooks, context or plugins. What this loses
// against bench/bare-server.mjs is the cost of tRPC itself, not of the app.
import { initTRPC } from "@trpc/server";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify from "fastify";
import superjson from "superjson";

const t = initTRPC.create({ transformer: superjson });
const router = t.router({ auth: t.router({ me: t.procedure.query(() => null) }) });
const app = Fastify({ logger: false });
await app.register(fastifyTRPCPlugin, { prefix: "/trpc", trpcOptions: { router } });
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.send?.({ ready: app.server.address().port });
