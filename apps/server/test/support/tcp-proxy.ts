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
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("data", (chunk: Buffer) => {
      if (resetOn && chunk.includes(resetOn.text)) {
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
    /**
     * Resets (TCP RST) the next connection whose client sends `text`, once: a database lost in the
     * middle of one particular statement. Resolves when it has happened.
     */
    resetWhenClientSends: (text: string) => new Promise<void>((fired) => void (resetOn = { text, fired })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
