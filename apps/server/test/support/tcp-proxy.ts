import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy on loopback to simulate the database going away and coming back: `cut()` resets every
 * open connection and stops listening, so new ones are refused (what a crashed or stopped PostgreSQL
 * looks like to the pool); `restore()` listens again on the same port; `resetWhenClientSends(text)`
 * cuts the one connection that sends a given statement.
 */
export async function tcpProxy(targetPort: number, targetHost = "127.0.0.1") {
  const sockets = new Set<Socket>();
  let resetOn: { text: string; fired: () => void } | null = null;
  /** What a failed wait can print: connections opened, and the errors PostgreSQL or the network gave. */
  const seen = { connections: 0, errors: [] as string[] };
  const server = createServer((client) => {
    seen.connections++;
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", (error) => void seen.errors.push(`${s === client ? "client" : "upstream"}: ${error.message}`));
    }
    upstream.on("data", (chunk: Buffer) => {
      // An ErrorResponse ('E') during start-up, e.g. "sorry, too many clients already".
      if (chunk[0] === 0x45) seen.errors.push(`postgres: ${chunk.toString("latin1").replace(/[^\x20-\x7e]+/g, " ").slice(0, 160)}`);
    });
    // The last bytes of the previous chunk, so a statement split across two reads still matches.
    let tail = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      const window = Buffer.concat([tail, chunk]);
      const at = resetOn ? window.lastIndexOf(resetOn.text) : -1;
      // Only a match that ends in this chunk: one wholly in the kept tail was already let through.
      const matched = at >= 0 && at + Buffer.byteLength(resetOn!.text) > tail.length;
      tail = window.subarray(Math.max(0, window.length - 64));
      if (resetOn && matched) {
        const { fired } = resetOn;
        resetOn = null;
        client.resetAndDestroy();
        upstream.destroy();
        fired();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  return {
    port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.resetAndDestroy();
      await closed;
    },
    restore: () => listen(port),
    /** Resets every open connection and keeps listening: each client must connect again. */
    resetOpen() {
      for (const s of sockets) s.resetAndDestroy();
    },
    /**
     * Resets (TCP RST) the next connection whose client sends `text`, once: a database lost in the
     * middle of one particular statement. Resolves when it has happened.
     */
    resetWhenClientSends: (text: string) => new Promise<void>((fired) => void (resetOn = { text, fired })),
    /** For a failure message: connections accepted so far and the errors seen on them. */
    report: () => `${seen.connections} connections; errors: ${seen.errors.slice(-10).join(" | ") || "none"}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
