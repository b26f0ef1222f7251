import { afterAll, beforeAll, inject } from "vitest";
import { startFileServer, type E2eServer } from "./server";

let server: E2eServer | undefined;

// Imported by the helpers every scenario file uses: the file's own server starts before its hooks.
beforeAll(async () => {
  server = await startFileServer(inject("e2eTemplate"));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  server = undefined;
});

/** This file's own server and database (decision 229). */
export function e2eServer(): E2eServer {
  if (!server) throw new Error("the file's e2e server is not running (call from a hook or a test)");
  return server;
}
