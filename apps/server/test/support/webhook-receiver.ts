import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A local HTTP server standing for a school's system: records every request (headers, raw body)
 * and answers with `answer` (default 200 "ok"). Close it in afterAll.
 */
export async function startReceiver(answer: (req: Received, res: ServerResponse) => void = (_r, res) => res.end("ok")) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    received,
    port,
    url: (path = "/webhooks") => `http://localhost:${port}${path}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
