import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { accessMessages } from "@elo/shared";
import type { FastifyInstance } from "fastify";

/** The listen backlog (Node's default, passed explicitly in bootstrap.ts): at most this many connections wait to be accepted. */
export const LISTEN_BACKLOG = 511;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Graceful close (`app.close()`, on SIGTERM in main.ts): every request whose bytes reached the
 * server before close began gets its answer; later ones get a 503 in Portuguese with
 * `Connection: close`, and so do /healthz and /readyz from the start, so a load balancer stops sending.
 * - Requests are counted per connection: `Connection: close` goes on the last answer owed on a
 *   connection only, since Node closes the socket after that answer and would drop the answers of
 *   requests pipelined behind it (their claims committed all the same).
 * - Live server-sent-event streams (tRPC subscriptions) never end by themselves: they are ended,
 *   which aborts the subscription; the browser's EventSource reconnects to the next server.
 * - Node closes idle keep-alive connections once, when the listener closes; one whose last answer
 *   goes out later is ended after it.
 * Needs Fastify's `return503OnClosing: false`: its own 503 (in English) would refuse requests read
 * during the drain turns, whose bytes came before the signal.
 */
export function registerGracefulClose(app: FastifyInstance): { draining(): boolean } {
  const streams = new Set<ServerResponse>();
  const owed = new WeakMap<Socket, number>();
  let draining = false; // close began: /healthz answers 503
  let refusing = false; // every byte received before close has been read: new requests answer 503

  let arrivals = 0; // connections accepted and requests read, to see when the drain turns stop finding any
  app.server.on("connection", () => arrivals++);
  app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    arrivals++;
    const socket = req.socket;
    owed.set(socket, (owed.get(socket) ?? 0) + 1);
    res.once("close", () => owed.set(socket, (owed.get(socket) ?? 1) - 1));
  });
  const lastOwedOn = (socket: Socket) => (owed.get(socket) ?? 0) <= 1;

  app.addHook("onRequest", (req, reply, done) => {
    if (!refusing && !(draining && READINESS_PATHS.has(req.url))) return done();
    reply.code(503).send({ error: { message: accessMessages.serviceUnavailable, code: "SERVICE_UNAVAILABLE" } });
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    if (draining) {
      if (refusing && lastOwedOn(req.raw.socket)) reply.header("connection", "close");
      else reply.raw.removeHeader("connection"); // Fastify sets it on every request routed while closing
    }
    // tRPC hands Fastify a fetch Response: its headers are on the payload, not yet on the reply.
    const type = payload instanceof Response ? payload.headers.get("content-type") : reply.getHeader("content-type");
    if (String(type ?? "").startsWith("text/event-stream")) {
      const res = reply.raw;
      streams.add(res);
      res.once("close", () => streams.delete(res));
    }
    done(null, payload);
  });
  app.addHook("onResponse", (req, _reply, done) => {
    if (refusing && lastOwedOn(req.raw.socket)) req.raw.socket.end();
    done();
  });
  app.addHook("preClose", async () => {
    draining = true;
    // Bytes that reached the server before close may not have been read yet: Node accepts one
    // waiting connection per event-loop turn and reads its request the turn after. Closing the
    // listener (or the connection, seen as idle) before that resets them. So turns go by until two
    // in a row bring nothing new; the backlog is FIFO, so LISTEN_BACKLOG turns empty whatever was
    // waiting at the signal even if new connections keep coming. Turns, not milliseconds: under
    // load a turn is slow, and each one reads whatever is ready.
    let turn = 0;
    for (let quiet = 0, seen = arrivals; quiet < 2 && turn < LISTEN_BACKLOG + 4; turn++) {
      await nextTurn();
      quiet = arrivals === seen ? quiet + 1 : 0;
      seen = arrivals;
    }
    refusing = true;
    app.log.info({ turns: turn }, "closing: every request received before the signal is read; refusing new ones");
    for (const res of streams) res.destroy();
  });
  return { draining: () => draining };
}

/** What a load balancer polls: 503 from the first moment of a graceful close (decision 181). */
const READINESS_PATHS = new Set(["/healthz", "/readyz"]);
