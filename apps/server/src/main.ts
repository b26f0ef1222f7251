import { surviveTypeFetchFailures } from "@elo/db";
import { startServer } from "./bootstrap";
import { loadConfig } from "./config";

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

// A database blip while postgres.js opens a connection must not end the process (decision 222).
let warnTypeFetch = (error: unknown) => console.warn("postgres.js could not read the array types on a new connection:", error);
surviveTypeFetchFailures((error) => warnTypeFetch(error));

const server = await startServer(config);
warnTypeFetch = (error) => server.deps.logger.warn({ err: error }, "postgres.js could not read the array types on a new connection; the process goes on");
console.log(`Elo Escolar listening on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    server.deps.logger.info({ signal }, "shutting down: finishing in-flight requests");
    // Requests still unanswered after the grace period are cut: the orchestrator would kill us anyway.
    const force = setTimeout(() => {
      server.deps.logger.error({ graceMs: config.SHUTDOWN_GRACE_MS }, "shutdown grace period over: exiting with requests unanswered");
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await server.close();
      process.exit(0);
    } catch (error) {
      server.deps.logger.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  });
}
