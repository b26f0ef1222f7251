import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import type { AppDeps } from "../../src/deps";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The app over the harness database, its log lines collected; `databaseUp` drives /healthz. */
async function appWithLog(isProduction: boolean, databaseUp = true) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const deps: AppDeps = {
    ...h.deps,
    config: { ...h.config, isProduction },
    logger: pino({ level: "info" }, sink),
    dbHandle: { ...h.dbHandle, ping: async () => databaseUp },
  };
  const app = await buildApp(deps);
  await app.ready();
  // Only what requests log counts (start-up may warn, e.g. when the web app is not built).
  lines.length = 0;
  return { app, lines };
}

describe("request logging (decision 088)", () => {
  it("logs no line for a fast, successful request in production", async () => {
    const { app, lines } = await appWithLog(true);
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    await app.close();
  });

  it("logs a server error in production, with its status and duration", async () => {
    const { app, lines } = await appWithLog(true, false);
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(503);
    expect(lines).toHaveLength(1);
    // The request's logger, made at its first use (decision 150), still carries the request's id.
    expect(lines[0]).toMatchObject({ level: 40, method: "GET", url: "/healthz", statusCode: 503, ms: expect.any(Number), reqId: expect.any(String) });
    await app.close();
  });

  it("keeps Fastify's per-request lines outside production", async () => {
    const { app, lines } = await appWithLog(false);
    await app.inject({ method: "GET", url: "/healthz" });
    expect(lines.map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
    await app.close();
  });
});
