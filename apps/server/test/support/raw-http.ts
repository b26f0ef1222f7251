import { connect } from "node:net";

export interface RawRequest {
  method?: string;
  /** The request target exactly as sent: `/trpc/a#x`, `http://host/trpc/a`, `//trpc/a`... */
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the request's last byte written to the answer's first byte read. */
  firstByteMs: number;
}

/** Reads a chunked body (the framing only; no trailers). */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseResponse(all: Buffer, label: string): Omit<RawResponse, "firstByteMs"> {
  const split = all.indexOf("\r\n\r\n");
  if (split < 0) throw new Error(`no HTTP answer to ${label}: ${all.toString("latin1").slice(0, 200)}`);
  const [statusLine, ...lines] = all.subarray(0, split).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => {
      const colon = l.indexOf(":");
      return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
    }),
  );
  const raw = all.subarray(split + 4);
  const body = headers["transfer-encoding"]?.includes("chunked") ? dechunk(raw) : raw;
  return { status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") };
}

function encode(baseUrl: string, req: RawRequest): Buffer {
  const { host } = new URL(baseUrl);
  const body = Buffer.from(req.body ?? "");
  const headers: Record<string, string> = { host, connection: "close", ...req.headers };
  if (req.body !== undefined) headers["content-length"] = String(body.length);
  const head = `${req.method ?? "GET"} ${req.target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** A connected socket whose answer is read until the server closes it (the request says Connection: close). */
async function connected(baseUrl: string): Promise<{ send: (bytes: Buffer) => void; answer: (label: string) => Promise<RawResponse> }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  let sentAt = 0;
  let firstByteAt = 0;
  socket.on("data", (d) => {
    firstByteAt ||= performance.now();
    chunks.push(d);
  });
  const ended = new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("end", resolve);
  });
  ended.catch(() => {}); // read (and thrown) by answer()
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return {
    send: (bytes) => socket.write(bytes, () => (sentAt = performance.now())),
    answer: async (label) => {
      socket.setTimeout(60_000, () => socket.destroy(new Error(`no answer to ${label}`)));
      await ended;
      return { ...parseResponse(Buffer.concat(chunks), label), firstByteMs: firstByteAt - sentAt };
    },
  };
}

/**
 * Sends one HTTP/1.1 request with the request line exactly as given (fetch and undici normalise
 * URLs: they drop `#…`, resolve dot segments, never send the absolute form) over its own connection.
 */
export async function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const c = await connected(baseUrl);
  c.send(encode(baseUrl, req));
  return c.answer(`${req.method ?? "GET"} ${req.target}`);
}

/**
 * Sends every request at once: all connections are opened first, then every request is written in
 * the same tick, so the server receives them together rather than in the order a loop would give.
 */
export async function rawBurst(baseUrl: string, reqs: RawRequest[]): Promise<RawResponse[]> {
  const sockets = await Promise.all(reqs.map(() => connected(baseUrl)));
  const bytes = reqs.map((r) => encode(baseUrl, r));
  sockets.forEach((c, i) => c.send(bytes[i]!));
  return Promise.all(sockets.map((c, i) => c.answer(`${reqs[i]!.method ?? "GET"} ${reqs[i]!.target}`)));
}
