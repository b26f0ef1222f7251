import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";

/**
 * Lets `app.close()` (SIGTERM in main.ts) finish as soon as the requests it had accepted are
 * answered. Without this it waited for the 15 s forced exit (exit code 1) on two kinds of socket:
 * - live server-sent-event streams (tRPC subscriptions), which never end by themselves: they are
 *   ended, which aborts the subscription; the browser's EventSource reconnects, to the next server
 *   in a rolling restart;
 * - keep-alive connections whose request finished after close began: Node closes the idle ones
 *   once, when close starts, and the others stayed open until their keep-alive timeout. Answers
 *   sent while closing say `Connection: close`, and idle sockets are closed after each answer.
 */
export function registerGracefulClose(app: FastifyInstance) {
  const streams = new Set<ServerResponse>();
  let closing = false;

  app.addHook("onSend", (_req, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    // tRPC hands Fastify a fetch Response: its headers are on the payload, not yet on the reply.
    const type = payload instanceof Response ? payload.headers.get("content-type") : reply.getHeader("content-type");
    if (String(type ?? "").startsWith("text/event-stream")) {
      const res = reply.raw;
      streams.add(res);
      res.once("close", () => streams.delete(res));
    }
    done(null, payload);
  });
  app.addHook("onResponse", (_req, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
  app.addHook("preClose", async () => {
    closing = true;
    for (const res of streams) res.destroy();
  });
}
