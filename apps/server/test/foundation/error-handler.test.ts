import { accessMessages } from "@elo/shared";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerErrorHandler } from "../../src/http/error-handler";

describe("the error handler outside /trpc (decision 225)", () => {
  it("keeps a bug's own message out of the answer and logs it", async () => {
    const logged: unknown[] = [];
    const app = Fastify({ logger: { level: "error", stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
    registerErrorHandler(app);
    app.get("/boom", () => {
      throw new Error("senha do banco: s3gr3d0");
    });
    app.get("/unavailable", () => {
      throw Object.assign(new Error("upstream down"), { statusCode: 503 });
    });
    const boom = await app.inject("/boom");
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ error: accessMessages.unexpected });
    expect(boom.body).not.toContain("s3gr3d0");
    expect(JSON.stringify(logged)).toContain("s3gr3d0");
    const unavailable = await app.inject("/unavailable");
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toEqual({ error: accessMessages.unexpected });
  });

  it("answers a 4xx error in Portuguese, with its status", async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.post("/echo", (req) => req.body);
    const unsupported = await app.inject({ method: "POST", url: "/echo", headers: { "content-type": "application/x-weird" }, payload: "x" });
    expect(unsupported.statusCode).toBe(415);
    expect(unsupported.json()).toEqual({ error: accessMessages.unsupportedBody });
    const empty = await app.inject({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, payload: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: accessMessages.unreadableBody });
  });
});
