import { once } from "node:events";
import { connect } from "node:net";

/** One HTTP answer as read off the wire. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The bytes of one HTTP/1.1 request (keep-alive, the default). */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body = ""): string {
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${new URL(url).host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body || method !== "GET") lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * A keep-alive connection driven by hand, to control exactly when a request's bytes leave (and so
 * whether they reached the server before an event) and to pipeline several requests on one socket,
 * which fetch never does. Answers are read in order; requests still waiting when the connection
 * ends resolve to null (the connection was reset or closed without answering them).
 */
export async function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on("error", () => {}); // a reset shows as the close below, with the waiting requests unanswered
  await once(socket, "connect");
  let pending = Buffer.alloc(0);
  const waiting: Array<(answer: RawAnswer | null) => void> = [];

  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (let parsed = parseAnswer(pending); parsed; parsed = parseAnswer(pending)) {
      pending = pending.subarray(parsed.length);
      waiting.shift()?.(parsed.answer);
    }
  });
  socket.on("close", () => {
    for (const resolve of waiting.splice(0)) resolve(null);
  });

  return {
    /**
     * Writes the requests in one go (pipelined when several) and resolves once the bytes are handed
     * to the kernel (on loopback: in the server's receive buffer), with one promise per answer.
     */
    async send(requests: string[]): Promise<Promise<RawAnswer | null>[]> {
      const answers = requests.map(() => new Promise<RawAnswer | null>((resolve) => waiting.push(resolve)));
      if (socket.destroyed) {
        for (const resolve of waiting.splice(0)) resolve(null);
        return answers;
      }
      await new Promise<void>((resolve) => socket.write(requests.join(""), () => resolve()));
      return answers;
    },
    close: () => socket.destroy(),
  };
}

/** One complete answer at the start of `buf` (Content-Length or chunked body), or null if more bytes are needed. */
function parseAnswer(buf: Buffer): { answer: RawAnswer; length: number } | null {
  const headEnd = buf.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const [statusLine, ...headerLines] = buf.subarray(0, headEnd).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine!.split(" ")[1]);
  let at = headEnd + 4;
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(at, lineEnd).toString("latin1"), 16);
      if (buf.length < lineEnd + 2 + size + 2) return null;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) return { answer: { status, headers, body: Buffer.concat(parts).toString("utf8") }, length: at };
    }
  }
  const size = Number(headers["content-length"] ?? 0);
  if (buf.length < at + size) return null;
  return { answer: { status, headers, body: buf.subarray(at, at + size).toString("utf8") }, length: at + size };
}

/** A request written exactly as given: the target may be `/trpc/a#x`, `http://host/trpc/a`, `//trpc/a`... */
export interface RawExchange {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

async function answerOf(answer: Promise<RawAnswer | null>, req: RawExchange): Promise<RawAnswer> {
  const got = await answer;
  if (!got) throw new Error(`no answer to ${req.method ?? "GET"} ${req.target}`);
  return got;
}

/**
 * One request over its own connection, with the request line as given (fetch and undici normalise
 * URLs: they drop `#…`, resolve dot segments, never send the absolute form). `ms` runs from the
 * request's bytes handed to the kernel to the whole answer read.
 */
export async function rawExchange(url: string, req: RawExchange): Promise<RawAnswer & { ms: number }> {
  const connection = await rawConnection(url);
  try {
    const [answer] = await connection.send([rawRequest(url, req.method ?? "GET", req.target, req.headers, req.body)]);
    const sent = performance.now();
    const got = await answerOf(answer!, req);
    return { ...got, ms: performance.now() - sent };
  } finally {
    connection.close();
  }
}

/**
 * Every request at once, each on its own connection: all connections are opened first, then every
 * request is written in the same tick, so the server receives them together.
 */
export async function rawBurst(url: string, reqs: RawExchange[]): Promise<RawAnswer[]> {
  const connections = await Promise.all(reqs.map(() => rawConnection(url)));
  try {
    const sends = connections.map((c, i) => c.send([rawRequest(url, reqs[i]!.method ?? "GET", reqs[i]!.target, reqs[i]!.headers, reqs[i]!.body)]));
    const answers = await Promise.all(sends);
    return await Promise.all(answers.map(([answer], i) => answerOf(answer!, reqs[i]!)));
  } finally {
    for (const c of connections) c.close();
  }
}
